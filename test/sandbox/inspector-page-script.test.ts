/**
 * The inspector's page script is TypeScript (src/sandbox/inspector/assets/*.ts) served as one
 * browser script, app.js: bundled by the build into dist/sandbox/inspector/, and by a sandbox run
 * from the sources on its first request (src/sandbox/inspector/page-script.ts), with the same
 * options (assets/bundle.json). Both serve the same script; test/sandbox/inspector.test.ts drives
 * the built one in Chromium.
 */
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {Script} from 'node:vm'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {bundlePageScript} from '../../src/sandbox/inspector/page-script.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const ASSETS = join(ROOT, 'src/sandbox/inspector/assets')

let h: TestSandbox
beforeAll(async () => {
  h = await startTestSandbox()
})
afterAll(async () => {
  await h?.close()
})

describe('the inspector’s page script', () => {
  it('a sandbox run from the sources serves app.js bundled from app.ts: one classic script, no import, the contract’s routes in it', async () => {
    expect(existsSync(join(ASSETS, 'app.js'))).toBe(false)
    const response = await fetch(`${h.sb.url}/_inspector/app.js`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    const script = await response.text()
    // A script the browser runs as it is (the page loads it with <script src defer>, not as a module).
    expect(() => new Script(script, {filename: 'app.js'})).not.toThrow()
    expect(script).not.toMatch(/^\s*(import|export)\b/m)
    expect(script).toContain('GET /_admin/inspector/session')
    expect(script).toContain('x-svc-csrf')
    // Read once per sandbox: the same bytes again.
    expect(await (await fetch(`${h.sb.url}/_inspector/app.js`)).text()).toBe(script)
    expect(Buffer.from(script)).toEqual(await bundlePageScript(ASSETS))
  })

  it('the build bundles the same script into dist/sandbox/inspector/app.js', async () => {
    const built = readFileSync(join(ROOT, 'dist/sandbox/inspector/app.js'))
    // npm test builds first; a build older than the page's sources differs here.
    expect(built.equals(await bundlePageScript(ASSETS)), 'dist/sandbox/inspector/app.js is not the bundle of the page sources (npm run build)').toBe(true)
  })
})
