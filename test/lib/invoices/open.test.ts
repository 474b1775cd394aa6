import {chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {findOpener, openUrl} from '../../../src/lib/invoices/open.js'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-open-'))
})
afterEach(() => rmSync(dir, {recursive: true, force: true}))

describe('opening a checkout_url', () => {
  it('finds xdg-open on the PATH and passes the URL as one argument, untouched, without a shell', async () => {
    const log = join(dir, 'argv')
    const fake = join(dir, 'xdg-open')
    writeFileSync(fake, `#!/bin/sh\nprintf '%s\\n' "$#" "$@" > '${log}'\n`)
    chmodSync(fake, 0o755)
    const env = {PATH: dir}
    const opener = findOpener('linux', env)
    expect(opener?.command).toBe(fake)
    const url = 'http://127.0.0.1:8787/pay/i/inv_test_1?type=sandbox&x=$(touch pwned)'
    expect(await openUrl(opener!, url, env)).toBe(true)
    // The opener runs detached: wait for its whole log (two lines), bounded.
    const logged = () => (existsSync(log) ? readFileSync(log, 'utf8') : '')
    await expect.poll(logged, {timeout: 10_000, interval: 20}).toBe(`1\n${url}\n`)
    expect(existsSync(join(dir, 'pwned'))).toBe(false)
  })

  it('no opener on the PATH: undefined (the command prints the URL instead); macOS and Windows openers', () => {
    expect(findOpener('linux', {PATH: dir})).toBeUndefined()
    expect(findOpener('win32', {PATH: ''})!.args('u')).toEqual(['url.dll,FileProtocolHandler', 'u'])
  })
})
