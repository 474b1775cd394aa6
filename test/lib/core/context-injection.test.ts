/**
 * What a run is given through `SvcCommand.runWith` reaches every API client it builds: a test (or
 * an embedding program) hands in the dispatcher that carries the requests, and the command's
 * clients, built by `ctx.clientFor`, send through it, to the real sandbox here.
 */
import {Readable, Writable} from 'node:stream'
import {fileURLToPath} from 'node:url'

import {Config} from '@oclif/core'
import {Agent, type Dispatcher} from 'undici'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {CommandContextOptions} from '../../../src/lib/command.js'
import {tempConfigDir} from '../../helpers/config-dir.js'
import {startTestSandbox, type TestSandbox} from '../../helpers/sandbox.js'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

type Runnable = {id: string; runWith(argv: string[], config: Config, options: CommandContextOptions): Promise<number>}

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(async () => {
  await sandbox?.close()
})

function sink(): Writable & {isTTY: false; text: string} {
  const stream = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        stream.text += chunk.toString('utf8')
        done()
      },
    }),
    {isTTY: false as const, text: ''},
  )
  return stream
}

describe('the context a run is given', () => {
  it('carries every API request of the run through the injected dispatcher', async () => {
    const seen: string[] = []
    const agent = new Agent()
    const recording = agent.compose((dispatch) => (options: Dispatcher.DispatchOptions, handler) => {
      seen.push(`${options.method} ${options.path}`)
      return dispatch(options, handler)
    })
    const temp = tempConfigDir()
    try {
      const {default: PayList} = (await import('../../../src/commands/pay/list.js')) as unknown as {default: Runnable}
      PayList.id = 'pay list'
      const stdout = sink()
      const stderr = sink()
      const code = await PayList.runWith(['--json'], await Config.load(ROOT), {
        env: {...sandbox.env(), SVC_CONFIG_DIR: temp.dir, SVC_RATE_LIMIT: '0', PATH: process.env.PATH ?? ''},
        streams: {stdin: Object.assign(Readable.from([]), {isTTY: false}), stdout, stderr},
        dispatcher: recording,
      })
      expect(code, stderr.text).toBe(0)
      expect(Array.isArray(JSON.parse(stdout.text)), stdout.text).toBe(true)
      expect(seen.some((line) => /^GET \/v1\/payments\b/.test(line)), seen.join('\n')).toBe(true)
    } finally {
      temp.cleanup()
      await agent.close()
    }
  })
})
