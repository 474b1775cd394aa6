/**
 * Which language a run speaks: --lang, then SVC_LANG, then the profile's language (saved by
 * `svc login --lang`), then LC_ALL / LC_MESSAGES / LANG; English by default.
 */
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import {createContext} from '../../../src/lib/context.js'
import {getLocale, setLocale} from '../../../src/lib/i18n/index.js'
import {localeFromTag, resolveLocale} from '../../../src/lib/i18n/locale.js'
import {tempConfigDir} from '../../helpers/config-dir.js'

describe('localeFromTag', () => {
  it.each([
    ['fr_CM.UTF-8', 'fr'],
    ['fr_FR', 'fr'],
    ['fr', 'fr'],
    ['FR_ca.utf8', 'fr'],
    ['fr-CM', 'fr'],
    ['fr_FR@euro', 'fr'],
    ['en_US.UTF-8', 'en'],
    ['en', 'en'],
    ['C', 'en'],
    ['C.UTF-8', 'en'],
    ['POSIX', 'en'],
    ['de_DE.UTF-8', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('%s → %s', (tag, want) => {
    expect(localeFromTag(tag)).toBe(want)
  })
})

describe('resolveLocale', () => {
  it.each<[string, string | undefined, NodeJS.ProcessEnv, string | undefined, 'en' | 'fr']>([
    ['nothing at all: English', undefined, {}, undefined, 'en'],
    ['--lang fr', 'fr', {}, undefined, 'fr'],
    ['--lang en beats SVC_LANG, profile and LANG', 'en', {SVC_LANG: 'fr', LANG: 'fr_CM.UTF-8'}, 'fr', 'en'],
    ['SVC_LANG=fr', undefined, {SVC_LANG: 'fr'}, undefined, 'fr'],
    ['SVC_LANG=en beats the profile and LANG', undefined, {SVC_LANG: 'en', LANG: 'fr_CM.UTF-8'}, 'fr', 'en'],
    ['profile lang fr', undefined, {}, 'fr', 'fr'],
    ['profile lang beats LANG', undefined, {LANG: 'fr_CM.UTF-8'}, 'en', 'en'],
    ['LANG=fr_CM.UTF-8', undefined, {LANG: 'fr_CM.UTF-8'}, undefined, 'fr'],
    ['LANG=fr_FR', undefined, {LANG: 'fr_FR'}, undefined, 'fr'],
    ['LANG=fr', undefined, {LANG: 'fr'}, undefined, 'fr'],
    ['LC_MESSAGES over LANG', undefined, {LC_MESSAGES: 'fr_CM.UTF-8', LANG: 'en_US.UTF-8'}, undefined, 'fr'],
    ['LC_ALL over LANG', undefined, {LC_ALL: 'en_US.UTF-8', LANG: 'fr_CM.UTF-8'}, undefined, 'en'],
    ['LC_ALL over LC_MESSAGES', undefined, {LC_ALL: 'fr_FR.UTF-8', LC_MESSAGES: 'C'}, undefined, 'fr'],
    ['LC_ALL=C means English', undefined, {LC_ALL: 'C', LANG: 'fr_CM.UTF-8'}, undefined, 'en'],
    ['an empty LC_ALL is unset', undefined, {LC_ALL: '', LANG: 'fr_CM.UTF-8'}, undefined, 'fr'],
    ['an unsupported SVC_LANG falls through', undefined, {SVC_LANG: 'de', LANG: 'fr_CM.UTF-8'}, undefined, 'fr'],
    ['a language we lack: English', undefined, {LANG: 'de_DE.UTF-8'}, undefined, 'en'],
  ])('%s', (_name, flag, env, profileLang, want) => {
    expect(resolveLocale(flag, env, profileLang)).toBe(want)
  })
})

describe('the context takes the profile language saved at login', () => {
  const cleanups: (() => void)[] = []
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup()
    setLocale('en')
  })

  function configWith(profiles: Record<string, {lang?: 'en' | 'fr'}>, current: string): string {
    const {dir, cleanup} = tempConfigDir()
    cleanups.push(cleanup)
    mkdirSync(dir, {recursive: true})
    const records = Object.fromEntries(
      Object.entries(profiles).map(([name, p]) => [name, {api_key: 'svc_sk_test_abcdefghijklmnop', base_url: 'http://127.0.0.1:9', ...p}]),
    )
    writeFileSync(join(dir, 'config.json'), JSON.stringify({current, profiles: records}))
    return dir
  }

  const make = (dir: string, env: NodeJS.ProcessEnv, flags: {lang?: string; profile?: string} = {}) =>
    createContext({flags, version: '0.0.0', env: {SVC_CONFIG_DIR: dir, ...env}})

  it('the current profile’s lang fr makes the run French (and sets the process locale)', () => {
    const dir = configWith({shop: {lang: 'fr'}}, 'shop')
    const ctx = make(dir, {LANG: 'C.UTF-8'})
    expect(ctx.locale).toBe('fr')
    expect(getLocale()).toBe('fr')
  })

  it('--profile picks that profile’s language; SVC_PROFILE too', () => {
    const dir = configWith({shop: {lang: 'fr'}, ops: {lang: 'en'}}, 'ops')
    expect(make(dir, {}).locale).toBe('en')
    expect(make(dir, {}, {profile: 'shop'}).locale).toBe('fr')
    expect(make(dir, {SVC_PROFILE: 'shop'}).locale).toBe('fr')
  })

  it('SVC_LANG and --lang override the profile; the profile overrides LANG', () => {
    const dir = configWith({shop: {lang: 'fr'}, ops: {lang: 'en'}}, 'shop')
    expect(make(dir, {SVC_LANG: 'en'}).locale).toBe('en')
    expect(make(dir, {}, {lang: 'en'}).locale).toBe('en')
    expect(make(dir, {LANG: 'fr_CM.UTF-8'}, {profile: 'ops'}).locale).toBe('en')
  })

  it('a profile without a language leaves it to LANG', () => {
    const dir = configWith({shop: {}}, 'shop')
    expect(make(dir, {LANG: 'fr_CM.UTF-8'}).locale).toBe('fr')
    expect(make(dir, {LANG: 'en_GB.UTF-8'}).locale).toBe('en')
  })
})
