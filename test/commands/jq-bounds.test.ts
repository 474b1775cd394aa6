/**
 * `--jq` bounded and interruptible: the filter runs in a worker thread with a time limit
 * (SVC_JQ_TIMEOUT, default 10 s) and a memory cap. Nine hostile expressions, each run by the built
 * CLI: past its limit it exits 1 naming the limit, never aborts Node; signalled mid-filter it
 * exits 130 (SIGINT, as Ctrl-C sends) or 143 (SIGTERM) at once: within 5 s on a busy machine, where a
 * main thread held by the filter would take until the 120 s time limit.
 *
 * "Mid-filter" is read from /proc: the signal goes once the worker thread (a task of the CLI's
 * process other than its main thread, named like it) has spent 400 ms of CPU, more than its
 * start-up and jq's loading take, so the filter is running.
 */
import {spawn} from 'node:child_process'
import {readFileSync, readdirSync} from 'node:fs'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {BIN, baseEnv, runCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'

const HOSTILE = [
  'def f: f; f',
  'last(range(1e9))',
  '[limit(100000000; repeat(1))] | length',
  'reduce range(1e12) as $i (0; .+1)',
  'until(false; .)',
  'repeat(.)',
  '[repeat(1)]',
  '[range(1e9)]',
  'def f: [f]; f',
]

let temp: ReturnType<typeof tempConfigDir>
beforeAll(() => {
  temp = tempConfigDir()
})
afterAll(() => temp.cleanup())

// `sandbox numbers` prints the spec's test numbers without a sandbox: the filter is all there is to run.
const ARGS = ['sandbox', 'numbers']

describe('--jq past its limits: exit 1 naming the limit', () => {
  for (const expression of HOSTILE) {
    it(expression, async () => {
      const started = Date.now()
      const r = await runCli([...ARGS, '--jq', expression], {configDir: temp.dir, env: {SVC_JQ_TIMEOUT: '2'}, timeoutMs: 60_000})
      const elapsed = Date.now() - started
      expect(r.signal, r.stderr).toBeNull()
      expect(r.exitCode, r.stderr).toBe(1)
      expect(r.stderr).toMatch(/time limit \(2 s; SVC_JQ_TIMEOUT\)|memory limit \(\d+ MB\)|output limit \(\d+ MB\)/)
      expect(r.stderr).not.toMatch(/Aborted|FATAL|heap out of memory|Unexpected error/)
      // Bounded: the limit, start-up and the worker's end, on a busy machine.
      expect(elapsed).toBeLessThan(30_000)
    }, 60_000)
  }

  it.each(['repeat(.)', 'range(1e9)', '[range(3e7)] | tostring'])('%s with a long time limit: its output meets a limit first, never a Node abort', async (expression) => {
    const r = await runCli([...ARGS, '--jq', expression], {configDir: temp.dir, env: {SVC_JQ_TIMEOUT: '120'}, timeoutMs: 150_000})
    expect(r.signal, r.stderr).toBeNull()
    expect(r.exitCode, r.stderr).toBe(1)
    expect(r.stderr).toMatch(/output limit \(\d+ MB\)|memory limit \(\d+ MB\)/)
  }, 180_000)

  // In-process: SVC_JQ_TIMEOUT is read from the command's environment, not the process's.
  it('SVC_JQ_TIMEOUT that is not a number of seconds: exit 2 naming it, what is accepted', async () => {
    for (const value of ['0', 'abc', '-3', '10 minutes']) {
      const r = await runInProcess([...ARGS, '--jq', '.'], {configDir: temp.dir, env: {SVC_JQ_TIMEOUT: value}})
      expect(r.exitCode, `${value}: ${r.stderr}`).toBe(2)
      expect(r.stderr).toContain('SVC_JQ_TIMEOUT')
      expect(r.stdout).toBe('')
    }
  })

  it('a filter within its limits still works, after the same worker ran the compile', async () => {
    const r = await runInProcess([...ARGS, '--jq', '[.[] | .phone] | length'], {configDir: temp.dir, env: {SVC_JQ_TIMEOUT: '5'}})
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout).toMatch(/^\d+\n$/)
  })
})

/** utime + stime, in clock ticks, of the CLI's busiest thread other than its main one. */
function workerCpuTicks(pid: number): number {
  let best = 0
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      if (Number(tid) === pid) continue
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
      // V8's and libuv's helper threads have names of their own; a worker thread is named like the process.
      if (comm !== 'node' && comm !== 'MainThread') continue
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      best = Math.max(best, Number(fields[11]) + Number(fields[12]))
    }
  } catch {
    // The process ended meanwhile.
  }
  return best
}

async function signalledMidFilter(expression: string, signal: 'SIGINT' | 'SIGTERM'): Promise<{code: number | null; afterSignalMs: number; stderr: string}> {
  // A generous time limit: what ends the run must be the signal.
  const env = {...baseEnv(temp.dir), SVC_JQ_TIMEOUT: '120'}
  const child = spawn(process.execPath, [BIN, ...ARGS, '--jq', expression], {env, stdio: ['ignore', 'pipe', 'pipe']})
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  child.stdout.resume()
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  let exited = false
  void closed.then(() => (exited = true))
  const killer = setTimeout(() => child.kill('SIGKILL'), 90_000)
  try {
    while (!exited && workerCpuTicks(child.pid!) < 40) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(exited, `the filter ended before it was signalled: ${stderr}`).toBe(false)
    const sent = Date.now()
    child.kill(signal)
    const code = await closed
    return {code, afterSignalMs: Date.now() - sent, stderr}
  } finally {
    clearTimeout(killer)
  }
}

describe('--jq mid-filter: Ctrl-C and SIGTERM still work', () => {
  for (const expression of HOSTILE) {
    it(`${expression}: SIGINT → 130, SIGTERM → 143, at once (within 5 s, the time limit being 120 s)`, async () => {
      const interrupted = await signalledMidFilter(expression, 'SIGINT')
      expect(interrupted.code, interrupted.stderr).toBe(130)
      expect(interrupted.afterSignalMs).toBeLessThan(5_000)
      const terminated = await signalledMidFilter(expression, 'SIGTERM')
      expect(terminated.code, terminated.stderr).toBe(143)
      expect(terminated.afterSignalMs).toBeLessThan(5_000)
    }, 120_000)
  }
})
