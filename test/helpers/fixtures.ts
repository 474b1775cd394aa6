/**
 * The set-up most command tests share, as vitest fixtures (`test.extend`) instead of the same
 * beforeAll/afterAll/beforeEach/afterEach block in every file:
 * - `sandbox`: one in-process sandbox per test file (file scope), started the first time a test
 *   of the file asks for it and closed when the file is done (startTestSandbox's defaults);
 * - `temp`: a fresh config dir per test (not yet created inside: the CLI must create it 0700),
 *   removed after the test; `configDir` is its path.
 *
 *   import {it} from '../helpers/fixtures.js'
 *   it('…', async ({sandbox, temp}) => { await runCli([...], {configDir: temp.dir, env: sandbox.env()}) })
 *
 * A test asks only for what it uses: a test without `sandbox` starts none. `withSandbox(options)`
 * gives the same fixtures with a sandbox started with other options.
 */
import {test as base} from 'vitest'

import {tempConfigDir} from './config-dir.js'
import {startTestSandbox, type StartOptions, type TestSandbox} from './sandbox.js'

export type TempConfigDir = ReturnType<typeof tempConfigDir>

export interface CommandFixtures {
  /** The file's sandbox. */
  sandbox: TestSandbox
  /** This test's config dir. */
  temp: TempConfigDir
}

/**
 * The fixtures with a sandbox started with these options (a file whose payments must settle at
 * once, a LIVE-only sandbox…): `const it = withSandbox({settleAfterMs: 0})` at the top of the file.
 */
export function withSandbox(options: StartOptions = {}) {
  return base.extend<CommandFixtures>({
    sandbox: [
      // eslint-disable-next-line no-empty-pattern
      async ({}, use) => {
        const sandbox = await startTestSandbox(options)
        try {
          await use(sandbox)
        } finally {
          await sandbox.close()
        }
      },
      {scope: 'file'},
    ],
    // eslint-disable-next-line no-empty-pattern
    temp: async ({}, use) => {
      const temp = tempConfigDir()
      try {
        await use(temp)
      } finally {
        temp.cleanup()
      }
    },
  })
}

export const test = withSandbox()

export const it = test
