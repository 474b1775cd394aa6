/**
 * `--jq EXPR` (gh's): the command's JSON output filtered through a real jq (jq-web: jq 1.7
 * compiled to WebAssembly), loaded only when the flag is given (~2.8 MB of WebAssembly to compile).
 * As gh prints it: each result on a line, strings raw (`jq -r`), anything else as compact JSON
 * (`jq -c`); indented on a terminal, where control characters in the results (text from the
 * service) are shown escaped (io/terminal-text.ts), as in all human output.
 */
import {InputError, SvcError, ExitCode} from '../errors.js'
import {t} from '../i18n/index.js'
import {escapeForTerminal} from './terminal-text.js'

type JqWeb = Awaited<typeof import('jq-web').default>

export interface JqFilter {
  /** The text to print for one JSON document (every result, each ending in a newline). */
  apply(json: string): string
}

/**
 * Loads jq and compiles `expression` (given no input, jq compiles the program and runs it on
 * nothing): a syntax error is bad input (exit 2, jq's message), found before anything is sent.
 */
export async function loadJq(expression: string, terminal: boolean): Promise<JqFilter> {
  // required, not import()ed: jq-web exports a promise, and an ES namespace of a CommonJS module
  // whose export is a promise is itself awaited (vitest's interop calls its then); no ESM loader either.
  const {createRequire} = process.getBuiltinModule('node:module')
  const jq = await (createRequire(__filename)('jq-web') as typeof import('jq-web').default)
  const flags = terminal ? ['-r'] : ['-r', '-c']
  try {
    run(jq, '', expression, flags)
  } catch (error) {
    throw new InputError(t('core.jq.invalid', {message: jqMessage(error)}), {field: 'jq'})
  }
  return {
    apply(json) {
      let out: string
      try {
        out = run(jq, json, expression, flags)
      } catch (error) {
        throw new SvcError(t('core.jq.failed', {message: jqMessage(error)}), {exitCode: ExitCode.FAILURE, code: 'jq_error'})
      }
      return terminal ? escapeForTerminal(out, {keepOwnColours: false}) : out
    },
  }
}

function run(jq: JqWeb, json: string, expression: string, flags: string[]): string {
  // jq-web rewrites the flags array it is given (--argjson): a copy each call. Its output lacks
  // the newline jq ends its last result with (undefined when jq printed nothing at all).
  const out = jq.raw(json, expression, [...flags])
  return out === undefined ? '' : `${out}\n`
}

/** jq's own words (its stderr), without jq-web's "Non-zero exit code" line. */
function jqMessage(error: unknown): string {
  const stderr = (error as {stderr?: unknown})?.stderr
  const text = typeof stderr === 'string' && stderr.trim() !== '' ? stderr : error instanceof Error ? error.message : String(error)
  return text
    .replace(/^Non-zero exit code: \d+\n?/, '')
    // jq-web hands jq the document as a file of that name; jq read it from stdin as far as anyone knows.
    .replaceAll('(at inputString:', '(at <stdin>:')
    .trim()
}
