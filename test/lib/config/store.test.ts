import {statSync, writeFileSync, mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {listProfiles, removeProfile, saveProfile, showProfile, useProfile} from '../../../src/lib/config/profiles.js'
import {readConfig, updateConfig} from '../../../src/lib/config/store.js'
import {SvcError} from '../../../src/lib/errors.js'
import {testClock} from '../../helpers/clock.js'
import {it} from '../../helpers/fixtures.js'

const KEY = 'svc_sk_live_abcdefghijklmnop1234'
/** The run's clock these calls take (the config lock's wait is on it): none of them waits. */
const clock = testClock('2026-11-28T10:00:00Z')
const saving = {makeCurrent: 'always', clock} as const

describe('config store', () => {
  it('creates the directory 0700 and the file 0600', async ({temp}) => {
    await saveProfile(temp.dir, 'shop', {api_key: KEY, base_url: 'http://127.0.0.1:1'}, saving)
    expect(statSync(temp.dir).mode & 0o777).toBe(0o700)
    expect(statSync(join(temp.dir, 'config.json')).mode & 0o777).toBe(0o600)
  })

  it('tightens an existing world-readable directory', async ({temp}) => {
    mkdirSync(temp.dir, {recursive: true, mode: 0o755})
    await updateConfig(temp.dir, () => {}, clock)
    expect(statSync(temp.dir).mode & 0o777).toBe(0o700)
  })

  it('never returns a key whole from the views', async ({temp}) => {
    await saveProfile(temp.dir, 'shop', {api_key: KEY, endpoint_secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0'}, saving)
    const text = JSON.stringify([listProfiles(temp.dir), showProfile(temp.dir, 'shop')])
    expect(text).not.toContain(KEY)
    expect(text).not.toContain('c2VjcmV0c2VjcmV0c2VjcmV0')
    expect(showProfile(temp.dir, 'shop').api_key).toBe('svc_sk_live_…1234')
  })

  it('saves, switches and removes profiles', async ({temp}) => {
    await saveProfile(temp.dir, 'a', {api_key: KEY}, saving)
    await saveProfile(temp.dir, 'b', {api_key: KEY}, saving)
    expect(readConfig(temp.dir).current).toBe('b')
    await useProfile(temp.dir, 'a', clock)
    expect(listProfiles(temp.dir).map((p) => [p.name, p.current])).toEqual([
      ['a', true],
      ['b', false],
    ])
    await removeProfile(temp.dir, 'a', clock)
    expect(readConfig(temp.dir).current).toBe('b')
    await expect(useProfile(temp.dir, 'a', clock)).rejects.toMatchObject({exitCode: 2, code: 'profile_not_found'})
  })

  it('reports a corrupt config file instead of crashing', ({temp}) => {
    mkdirSync(temp.dir, {recursive: true})
    writeFileSync(join(temp.dir, 'config.json'), '{not json')
    expect(() => readConfig(temp.dir)).toThrow(SvcError)
    expect(() => readConfig(temp.dir)).toThrow(/config\.json/)
  })
})
