/**
 * How each case's answers are judged, and the one sentence that says what the handler does wrong
 * and how to fix it. A case passes when every delivery got what a correct handler answers (2xx for
 * accept, 4xx for refuse) within the timeout; it is slow (a warning, still a pass) over 5 s.
 */
import {getLocale, t, type MessageKey} from '../../i18n/index.js'
import {formatDuration} from '../format.js'
import type {CaseName, Delivery, TestCase} from './cases.js'
import type {Answer} from './send.js'

/** Over this the case passes with a warning: the service itself gives up after 15 s. */
export const SLOW_MS = 5_000

export type Verdict = 'pass' | 'warn' | 'fail'

export interface CaseResult {
  name: CaseName
  expect: '2xx' | '4xx'
  /** The answer that decided the verdict (the first wrong one, else the first); null: none came. */
  status: number | null
  /** Why no answer came (`timeout`, `ECONNREFUSED`…), when none did. */
  error?: string
  /** The slowest delivery of the case, in ms. */
  ms: number
  verdict: Verdict
  /** Why it failed and how to fix it; or a note (slow, duplicate); null when there is nothing to say. */
  detail: string | null
  /** Every delivery's answer, in the order sent. */
  answers: Answer[]
}

export interface JudgeOptions {
  url: string
  timeoutMs: number
}

const is2xx = (status?: number) => status !== undefined && status >= 200 && status < 300
const is4xx = (status?: number) => status !== undefined && status >= 400 && status < 500

function met(testCase: TestCase, answer: Answer): boolean {
  return testCase.expect === 'accept' ? is2xx(answer.status) : is4xx(answer.status)
}

export function judge(testCase: TestCase, answers: Answer[], options: JudgeOptions): CaseResult {
  const ms = Math.max(0, ...answers.map((answer) => answer.ms))
  const wrong = answers.findIndex((answer) => !met(testCase, answer))
  const decisive = answers[wrong === -1 ? 0 : wrong]
  const base = {
    name: testCase.name,
    expect: testCase.expect === 'accept' ? ('2xx' as const) : ('4xx' as const),
    status: decisive?.status ?? null,
    ...(decisive?.error ? {error: decisive.error} : {}),
    ms,
    answers,
  }
  if (wrong !== -1) {
    return {...base, verdict: 'fail', detail: failureDetail(testCase, answers, wrong, options)}
  }
  const notes: string[] = []
  if (ms > SLOW_MS) notes.push(t('hooktest.detail.slow', {latency: formatLatency(ms)}))
  if (testCase.name === 'duplicate') notes.push(t('hooktest.note.duplicate', {id: testCase.eventId}))
  return {...base, verdict: ms > SLOW_MS ? 'warn' : 'pass', detail: notes.length ? notes.join(' ') : null}
}

function failureDetail(testCase: TestCase, answers: Answer[], index: number, options: JudgeOptions): string {
  const answer = answers[index]
  const delivery: Delivery = testCase.deliveries[index]
  const what = delivery.omitted ? t('hooktest.what.missingOne', {header: delivery.omitted}) : t(whatKey(testCase.name))
  if (answer.error === 'timeout') {
    const timeout = formatDuration(options.timeoutMs)
    return testCase.expect === 'accept' ? t('hooktest.detail.timeout', {timeout}) : t('hooktest.detail.timeoutRefuse', {timeout, what})
  }
  if (answer.status === undefined) return t('hooktest.detail.unreachable', {url: options.url, error: answer.error ?? ''})
  const status = answer.status
  if (testCase.expect === 'accept') {
    if (testCase.name === 'burst') {
      const refused = answers.filter((a) => !is2xx(a.status))
      return t('hooktest.fix.burst', {count: refused.length, total: answers.length, answers: summariseAnswers(refused)})
    }
    // The first delivery of duplicate is a plain valid event: refusing it is valid-success's fault.
    if (testCase.name === 'duplicate' && index === 0) return t(fixKey('valid-success'), {status})
    return t(fixKey(testCase.name), {status})
  }
  if (is2xx(status)) return t(fixKey(testCase.name), {status, header: delivery.omitted ?? ''})
  if (status >= 500) return t('hooktest.detail.crash', {status, what})
  return t('hooktest.detail.notRefused', {status, what})
}

/** `500 ×3, no answer ×1`: the wrong answers of a burst, grouped. */
function summariseAnswers(answers: Answer[]): string {
  const counts = new Map<string, number>()
  for (const answer of answers) {
    const label = answer.status !== undefined ? String(answer.status) : answerLabel(answer)
    counts.set(label, (counts.get(label) ?? 0) + 1)
  }
  return [...counts].map(([label, count]) => `${label} ×${count}`).join(', ')
}

/** What the ANSWER column shows: the status, or why there was none. */
export function answerLabel(answer: {status?: number | null; error?: string}): string {
  if (answer.status !== undefined && answer.status !== null) return String(answer.status)
  return answer.error === 'timeout' ? t('hooktest.answer.timeout') : t('hooktest.answer.error')
}

/** `12 ms`, `5.4 s`. */
export function formatLatency(ms: number): string {
  if (ms < 1000) return t('webhooks.duration.ms', {n: Math.round(ms)})
  const seconds = (Math.round(ms / 100) / 10).toLocaleString(getLocale() === 'fr' ? 'fr-FR' : 'en-US', {minimumFractionDigits: 1, maximumFractionDigits: 1})
  return t('webhooks.duration.s', {n: seconds})
}

export function whatKey(name: CaseName): MessageKey {
  return `hooktest.what.${name}` as MessageKey
}

export function fixKey(name: CaseName): MessageKey {
  return `hooktest.fix.${name}` as MessageKey
}
