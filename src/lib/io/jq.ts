/**
 * `--jq EXPR` (gh's): the command's JSON output filtered through a real jq (jq-web: jq 1.7
 * compiled to WebAssembly), loaded only when the flag is given (~2.8 MB of WebAssembly to compile).
 * As gh prints it: each result on a line, strings raw (`jq -r`), anything else as compact JSON
 * (`jq -c`); indented on a terminal, where control characters in the results (text from the
 * service) are shown escaped (io/terminal-text.ts), as in all human output.
 *
 * Bounded (jq-run.ts): a time limit (SVC_JQ_TIMEOUT seconds, default 10), a memory limit and an
 * output limit (JQ_MEMORY_MB, JQ_OUTPUT_MB); a filter past either ends the command with exit 1
 * naming the limit. A filter runs on the main thread for a short slice first (jq-main.ts,
 * SVC_JQ_MAIN_THREAD_MS), then, still running, in a worker thread (jq-worker.ts), so that Ctrl-C
 * and SIGTERM are answered mid-filter.
 */
import {systemClock, type Clock} from '../../contract/clock.js'
import {InputError, SvcError, ExitCode} from '../errors.js'
import {t} from '../i18n/index.js'
import {JQ_MAIN_THREAD_DEFAULT_MS, JQ_MAIN_THREAD_MAX_MS} from './jq-main.js'
import {JqRunner, type JqLimits, type JqOutcome} from './jq-run.js'
import {JQ_MEMORY_MB, JQ_OUTPUT_MB} from './jq-worker.js'
import {escapeForTerminal} from './terminal-text.js'

export interface JqFilter {
  /** The text to print for one JSON document (every result, each ending in a newline). */
  apply(json: string): Promise<string>
}

/** Seconds a filter may run when SVC_JQ_TIMEOUT is not set. */
export const JQ_DEFAULT_TIMEOUT_S = 10

/** SVC_JQ_TIMEOUT: seconds, a number greater than 0 (`10`, `2.5`); refused with exit 2 otherwise. */
export function jqTimeoutSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SVC_JQ_TIMEOUT
  if (raw === undefined || raw.trim() === '') return JQ_DEFAULT_TIMEOUT_S
  const seconds = /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : Number.NaN
  if (!(seconds > 0) || seconds > 86_400) throw new InputError(t('core.jq.badTimeout', {value: JSON.stringify(raw)}), {field: 'SVC_JQ_TIMEOUT'})
  return seconds
}

/**
 * SVC_JQ_MAIN_THREAD_MS: how long a filter may run on the main thread before it moves to a worker
 * thread, whole milliseconds from 0 (always a worker) to 1000 (SIGTERM waits for the slice's end);
 * default 500. Refused with exit 2 otherwise.
 */
export function jqMainThreadMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SVC_JQ_MAIN_THREAD_MS
  if (raw === undefined || raw.trim() === '') return JQ_MAIN_THREAD_DEFAULT_MS
  const ms = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN
  if (!(ms >= 0 && ms <= JQ_MAIN_THREAD_MAX_MS)) {
    throw new InputError(t('core.jq.badMainThread', {value: JSON.stringify(raw), max: String(JQ_MAIN_THREAD_MAX_MS)}), {field: 'SVC_JQ_MAIN_THREAD_MS'})
  }
  return ms
}

/**
 * Loads jq and compiles `expression` (given no input, jq compiles the program and runs it on
 * nothing): a syntax error is bad input (exit 2, jq's message), found before anything is sent.
 * SVC_JQ_TIMEOUT and SVC_JQ_MAIN_THREAD_MS are read from `env`, the command's environment (its
 * context's); the time limit runs on `clock` (the run's).
 */
export async function loadJq(expression: string, terminal: boolean, env: NodeJS.ProcessEnv = process.env, clock: Clock = systemClock): Promise<JqFilter> {
  const seconds = jqTimeoutSeconds(env)
  const runner = jqRunner({timeoutMs: seconds * 1000, mainThreadMs: jqMainThreadMs(env)})
  const flags = terminal ? ['-r'] : ['-r', '-c']
  const compiled = await runner.run('', expression, flags, {compiling: true, clock})
  if ('error' in compiled && compiled.error === 'jq') throw new InputError(t('core.jq.invalid', {message: jqMessage(compiled.stderr)}), {field: 'jq'})
  outputOf(compiled, seconds)
  return {
    async apply(json) {
      const out = outputOf(await runner.run(json, expression, flags, {clock}), seconds)
      return terminal ? escapeForTerminal(out, {keepOwnColours: false}) : out
    },
  }
}

let shared: JqRunner | undefined

/** One runner per process, and its worker if any (a process running many commands, such as a test's, shares it). */
function jqRunner(limits: JqLimits): JqRunner {
  if (shared?.limits.timeoutMs !== limits.timeoutMs || shared.limits.mainThreadMs !== limits.mainThreadMs) {
    void shared?.close()
    shared = new JqRunner(limits)
  }
  return shared
}

function outputOf(outcome: JqOutcome, seconds: number): string {
  if ('out' in outcome) return outcome.out
  const fail = (message: string, code: string) => new SvcError(message, {exitCode: ExitCode.FAILURE, code})
  switch (outcome.error) {
    case 'time':
      throw fail(t('core.jq.timeLimit', {seconds: String(seconds)}), 'jq_time_limit')
    case 'memory':
      throw fail(t('core.jq.memoryLimit', {mb: String(JQ_MEMORY_MB)}), 'jq_memory_limit')
    case 'output':
      throw fail(t('core.jq.outputLimit', {mb: String(JQ_OUTPUT_MB)}), 'jq_output_limit')
    case 'jq':
      throw fail(t('core.jq.failed', {message: jqMessage(outcome.stderr)}), 'jq_error')
    default:
      throw fail(t('core.jq.failed', {message: outcome.message}), 'jq_error')
  }
}

/** jq's own words (its stderr), without jq-web's "Non-zero exit code" line. */
function jqMessage(stderr: string): string {
  return stderr
    .replace(/^Non-zero exit code: \d+\n?/, '')
    // jq-web hands jq the document as a file of that name; jq read it from stdin as far as anyone knows.
    .replaceAll('(at inputString:', '(at <stdin>:')
    .trim()
}
