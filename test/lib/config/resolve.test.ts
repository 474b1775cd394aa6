import {describe, expect, it} from 'vitest'

import {resolveCredentials} from '../../../src/lib/config/resolve.js'
import type {ConfigData} from '../../../src/lib/config/store.js'
import {InputError} from '../../../src/lib/errors.js'

const KEY_FLAG = 'svc_sk_test_flagflagflag1'
const KEY_ENV = 'svc_sk_test_envenvenvenv2'
const KEY_NAMED = 'svc_sk_live_namednamed333'
const KEY_CURRENT = 'svc_sk_test_currentcurr44'

const config: ConfigData = {
  current: 'main',
  profiles: {
    main: {api_key: KEY_CURRENT, base_url: 'http://current.test'},
    other: {api_key: KEY_NAMED, base_url: 'http://named.test/'},
  },
}

describe('key and base URL precedence (README.md, Environment)', () => {
  const cases: [string, Parameters<typeof resolveCredentials>[0], NodeJS.ProcessEnv, string, string][] = [
    ['--api-key beats everything', {apiKey: KEY_FLAG, profile: 'other'}, {SVC_API_KEY: KEY_ENV, SVC_PROFILE: 'other'}, KEY_FLAG, 'http://named.test'],
    ['SVC_API_KEY beats profiles', {profile: 'other'}, {SVC_API_KEY: KEY_ENV}, KEY_ENV, 'http://named.test'],
    ['--profile beats SVC_PROFILE and current', {profile: 'other'}, {SVC_PROFILE: 'main'}, KEY_NAMED, 'http://named.test'],
    ['SVC_PROFILE beats current', {}, {SVC_PROFILE: 'other'}, KEY_NAMED, 'http://named.test'],
    ['current profile last', {}, {}, KEY_CURRENT, 'http://current.test'],
    ['--base-url beats SVC_BASE_URL', {baseUrl: 'http://flag.test'}, {SVC_BASE_URL: 'http://env.test'}, KEY_CURRENT, 'http://flag.test'],
    ['SVC_BASE_URL beats the profile', {}, {SVC_BASE_URL: 'http://env.test'}, KEY_CURRENT, 'http://env.test'],
    ['empty SVC_API_KEY is unset', {}, {SVC_API_KEY: ''}, KEY_CURRENT, 'http://current.test'],
  ]
  for (const [name, flags, env, key, baseUrl] of cases) {
    it(name, () => {
      const creds = resolveCredentials(flags, env, config)
      expect(creds.apiKey).toBe(key)
      expect(creds.baseUrl).toBe(baseUrl)
    })
  }

  it('derives the environment from the key prefix alone', () => {
    expect(resolveCredentials({profile: 'other'}, {}, config).environment).toBe('LIVE')
    expect(resolveCredentials({}, {}, config).environment).toBe('SANDBOX')
  })

  it('refuses a named profile that does not exist, and an unknown key prefix', () => {
    expect(() => resolveCredentials({profile: 'nope'}, {}, config)).toThrow(InputError)
    expect(() => resolveCredentials({}, {SVC_PROFILE: 'nope'}, config)).toThrow(/nope/)
    expect(() => resolveCredentials({apiKey: 'sk_live_stripe_style_key'}, {}, config)).toThrow(/svc_sk_test_/)
  })

  it('refuses a base URL that is not http(s)', () => {
    for (const bad of ['ftp://x.test', 'not a url', 'file:///etc/passwd']) {
      expect(() => resolveCredentials({baseUrl: bad}, {}, config)).toThrow(InputError)
    }
  })
})
