/**
 * The report of `svc webhooks test`: a table (case, expected, answer, latency, verdict), then one
 * sentence per failure (what the handler does wrong, how to fix it) and the notes, then a summary
 * line; or, with --json, `{url, cases: [{name, expect, status, ms, verdict, detail}], passed, failed}`.
 */
import type {IO} from '../../io/terminal.js'
import {t} from '../../i18n/index.js'
import {answerLabel, formatLatency, type CaseResult} from './verdicts.js'

export interface JsonReport {
  url: string
  cases: Array<{name: string; expect: '2xx' | '4xx'; status: number | null; ms: number; verdict: string; detail: string | null}>
  passed: number
  failed: number
}

export function renderJson(url: string, results: CaseResult[]): JsonReport {
  return {
    url,
    cases: results.map((r) => ({name: r.name, expect: r.expect, status: r.status, ms: Math.round(r.ms), verdict: r.verdict, detail: r.detail})),
    passed: results.filter((r) => r.verdict !== 'fail').length,
    failed: results.filter((r) => r.verdict === 'fail').length,
  }
}

export async function renderReport(io: IO, results: CaseResult[]): Promise<string> {
  const paint = await io.paint()
  const verdictText = (r: CaseResult) => {
    if (r.verdict === 'fail') return paint.red(t('hooktest.verdict.fail'))
    if (r.verdict === 'warn') return paint.yellow(t('hooktest.verdict.warn'))
    return paint.green(t('hooktest.verdict.pass'))
  }
  const table = await io.table(
    [t('hooktest.col.case'), t('hooktest.col.expected'), t('hooktest.col.answer'), t('hooktest.col.latency'), t('hooktest.col.verdict')],
    results.map((r) => [
      r.name,
      t(r.expect === '2xx' ? 'hooktest.expect.accept' : 'hooktest.expect.refuse'),
      answerLabel({status: r.status, error: r.error}),
      formatLatency(r.ms),
      verdictText(r),
    ]),
    [{kind: 'id'}, {priority: 3}, {kind: 'text', priority: 2}, {priority: 4}, {priority: 1}],
  )
  const lines = [table, '']
  for (const r of results.filter((r) => r.verdict === 'fail')) lines.push(t('hooktest.line', {name: paint.red(r.name), text: r.detail ?? ''}))
  for (const r of results.filter((r) => r.verdict !== 'fail' && r.detail)) lines.push(t('hooktest.line', {name: paint.yellow(r.name), text: r.detail ?? ''}))
  // Refusals mean little from a handler that refuses everything.
  const validRefused = results.find((r) => r.name === 'valid-success' && r.verdict === 'fail' && r.status !== null && r.status >= 400 && r.status < 500)
  if (validRefused && results.some((r) => r.expect === '4xx' && r.verdict !== 'fail')) lines.push(t('hooktest.note.refusesAll'))
  if (lines[lines.length - 1] !== '') lines.push('')
  const passed = results.filter((r) => r.verdict !== 'fail').length
  const failed = results.length - passed
  const warned = results.filter((r) => r.verdict === 'warn').length
  const params = {passed, failed, warned, total: results.length}
  const summary = warned > 0 ? t('hooktest.summarySlow', params) : t('hooktest.summary', params)
  lines.push(failed > 0 ? paint.red(summary) : paint.green(summary))
  return lines.join('\n')
}
