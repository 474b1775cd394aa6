/**
 * The base command's one exit path, in process: a command class is run with oclif's own
 * `Command.run` on streams the test owns (a terminal, for the spinner), and the test reads what a
 * user would see there and the exit code the run leaves.
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {clearLine, cursorTo, moveCursor} from 'node:readline'
import {PassThrough} from 'node:stream'
import {fileURLToPath} from 'node:url'

import {Config} from '@oclif/core'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi} from 'vitest'

import {SvcCommand} from '../../../src/lib/command.js'
import {createContext} from '../../../src/lib/context.js'
import {ApiError, ExitCode, Failure, InputError, OutcomeError} from '../../../src/lib/errors.js'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

/** A stream that says it is a terminal and keeps everything written to it. */
function terminal(): PassThrough & {isTTY: true; columns: number; text(): string} {
  const stream = new PassThrough() as PassThrough & {isTTY: true; columns: number; text(): string}
  let written = ''
  stream.on('data', (chunk: Buffer) => (written += chunk.toString('utf8')))
  stream.isTTY = true
  stream.columns = 80
  // What a tty.WriteStream adds, and ora uses to clear its line.
  Object.assign(stream, {
    cursorTo: (x: number, y?: number) => cursorTo(stream, x, y),
    moveCursor: (dx: number, dy: number) => moveCursor(stream, dx, dy),
    clearLine: (dir: -1 | 0 | 1) => clearLine(stream, dir),
  })
  stream.text = () => written
  return stream
}

let streams: ReturnType<typeof makeStreams>
function makeStreams() {
  return {stdin: terminal(), stdout: terminal(), stderr: terminal()}
}

let work: (command: ProbeCommand) => Promise<void> = async () => {}

/** Runs `work` with a context on the test's terminal streams (the rest is the real base command). */
class ProbeCommand extends SvcCommand<typeof ProbeCommand> {
  static override id = 'probe'

  public override async init(): Promise<void> {
    await super.init()
    this.ctx = createContext({
      flags: {json: this.flags.json, apiKey: this.flags['api-key']},
      version: this.config.version,
      env: {SVC_CONFIG_DIR: configDir, LANG: 'C.UTF-8', NO_COLOR: '1'},
      streams,
    })
  }

  get context() {
    return this.ctx
  }

  async run(): Promise<void> {
    await work(this)
  }
}

let config: Config
let configDir: string
let sigintListeners: Function[]

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'svc-command-'))
  config = await Config.load({root: ROOT})
})

afterAll(() => rmSync(configDir, {recursive: true, force: true}))

beforeEach(() => {
  streams = makeStreams()
  // The base command's first context reads the environment: keep the developer's settings out.
  vi.stubEnv('SVC_CONFIG_DIR', configDir)
  vi.stubEnv('LANG', 'C.UTF-8')
  vi.stubEnv('SVC_LANG', '')
  // ora draws only on an interactive terminal: not one it believes is CI.
  delete process.env.CI
  vi.stubEnv('TERM', 'xterm')
  sigintListeners = process.listeners('SIGINT')
})

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
  process.exitCode = undefined
  for (const listener of process.listeners('SIGINT')) {
    if (!sigintListeners.includes(listener)) process.removeListener('SIGINT', listener as () => void)
  }
})

async function probe(argv: string[], body: typeof work): Promise<{stdout: string; stderr: string; exitCode: number | string | undefined}> {
  work = body
  await ProbeCommand.run(argv, config)
  const exitCode = process.exitCode
  return {stdout: streams.stdout.text(), stderr: streams.stderr.text(), exitCode}
}


describe('the base command: one exit path', () => {
  it('an error while a spinner runs: the spinner is stopped, the message printed once, through the context', async () => {
    // The spinner's frames (ora draws them on a setInterval) on fake timers the test moves.
    vi.useFakeTimers({toFake: ['setInterval', 'clearInterval']})
    onTestFinished(() => void vi.useRealTimers())
    const result = await probe([], async (command) => {
      await command.context.io.spinner('Sending the payment')
      // Running: drawn again by its timer (a frame after the first), not just started.
      vi.advanceTimersByTime(80)
      await vi.waitFor(() => expect(streams.stderr.text().split('Sending the payment').length).toBeGreaterThan(2), {timeout: 10_000, interval: 20})
      throw new InputError('Amount must be a whole number of XAF.', {field: 'amount'})
    })
    expect(result.exitCode).toBe(ExitCode.USAGE)
    expect(result.stdout).toBe('')
    // The spinner was on screen…
    expect(result.stderr).toContain('Sending the payment')
    // …the message comes after it, once, and nothing draws over it.
    const message = 'Error: Amount must be a whole number of XAF.\n'
    expect(result.stderr.split(message)).toHaveLength(2)
    expect(result.stderr.endsWith(message)).toBe(true)
    // No frame drawn after the message over several of the spinner's 80 ms frames (the timers
    // moved, then the writes they would make given a turn to arrive).
    vi.advanceTimersByTime(400)
    await new Promise((resolve) => setImmediate(resolve))
    expect(streams.stderr.text()).toBe(result.stderr)
  })

  it('the hint follows the message on its own line', async () => {
    const result = await probe([], async () => {
      throw new OutcomeError('Payment failed.', {code: 'payment_failed', hint: 'Try another number.'})
    })
    expect(result.exitCode).toBe(ExitCode.FAILURE)
    expect(result.stderr).toBe('Error: Payment failed.\nHint: Try another number.\n')
  })

  it('a silent Failure keeps its exit code and prints nothing more', async () => {
    const result = await probe([], async (command) => {
      command.context.io.out('step  ✗')
      throw new Failure(ExitCode.FAILURE)
    })
    expect(result.exitCode).toBe(ExitCode.FAILURE)
    expect(result.stdout).toBe('step  ✗\n')
    expect(result.stderr).toBe('')
  })

  it('afterResult: with --json the document alone (and the exit code); without, the message once', async () => {
    const failing = async (command: ProbeCommand) => {
      const {io} = command.context
      await io.result({id: 'pay_1', status: 'FAILED'}, () => io.out('pay_1 FAILED'))
      throw io.afterResult(new OutcomeError('The payment failed.', {code: 'payment_failed', exitCode: ExitCode.FAILURE}))
    }
    const json = await probe(['--json'], failing)
    expect(json.exitCode).toBe(ExitCode.FAILURE)
    expect(JSON.parse(json.stdout)).toEqual({id: 'pay_1', status: 'FAILED'})
    expect(json.stderr).toBe('')

    process.exitCode = undefined
    streams = makeStreams()
    const human = await probe([], failing)
    expect(human.exitCode).toBe(ExitCode.FAILURE)
    expect(human.stdout).toBe('pay_1 FAILED\n')
    expect(human.stderr).toBe('Error: The payment failed.\n')
  })

  it('--json: the error envelope on stdout, nothing on stderr, the exit code of the error', async () => {
    const result = await probe(['--json'], async (command) => {
      await command.context.io.spinner('Working')
      throw new ApiError('No such payment.', {status: 404, requestId: 'req_1'})
    })
    expect(result.exitCode).toBe(ExitCode.NOT_FOUND)
    expect(result.stderr).toBe('')
    expect(result.stdout).toBe(
      `${JSON.stringify({error: {status: 404, code: 'not_found', message: 'No such payment.', request_id: 'req_1'}}, null, 2)}\n`,
    )
  })

  it('--json: an unexpected error is an envelope too, with the key in it masked', async () => {
    const key = 'sk_test_0123456789abcdefghij'
    const result = await probe(['--json', '--api-key', key], async () => {
      throw new Error(`socket closed while sending ${key}`)
    })
    expect(result.exitCode).toBe(ExitCode.FAILURE)
    const body = JSON.parse(result.stdout) as {error: {status: null; code: string; message: string}}
    expect(body.error.status).toBeNull()
    expect(body.error.code).toBe('unexpected_error')
    expect(body.error.message).toContain('socket closed while sending')
    expect(result.stdout).not.toContain(key)
  })

  it('io.result: with --json the data only (the human renderer never runs); without, the renderer', async () => {
    const human = vi.fn()
    const json = await probe(['--json'], async (command) => command.context.io.result({ok: true}, human))
    expect(json.stdout).toBe('{\n  "ok": true\n}\n')
    expect(human).not.toHaveBeenCalled()
    expect(json.exitCode).toBeUndefined()

    streams = makeStreams()
    const plain = await probe([], async (command) => command.context.io.result({ok: true}, () => command.context.io.out('ok')))
    expect(plain.stdout).toBe('ok\n')
  })

  it('a flag that does not parse (no context yet): exit 2, the envelope with --json', async () => {
    const writes: string[] = []
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      writes.push(String(chunk))
      return true
    })
    await ProbeCommand.run(['--json', '--no-such-flag'], config)
    expect(process.exitCode).toBe(ExitCode.USAGE)
    const body = JSON.parse(writes.join('')) as {error: {code: string; message: string}}
    expect(body.error.code).toBe('invalid_input')
    expect(body.error.message).toContain('--no-such-flag')
  })
})
