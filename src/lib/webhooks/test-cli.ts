/**
 * The work of `svc webhooks test URL` (the grader itself is in grade/: cases, sender, verdicts,
 * report): check the flags (nothing is sent on bad input), say what is about to be sent and with
 * which secret, ask before sending anywhere off this machine, run the battery, then render the
 * verdicts. Exit 0 when every case passes, 1 otherwise.
 */
import type {LookupAddress} from 'node:dns'

import type {Context} from '../context.js'
import {ExitCode, Failure, InputError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {maskSecret} from '../../contract/keys.js'
import {secretKey} from '../../contract/signature.js'
import {parseDuration} from '../time/duration.js'
import {formatDuration} from './format.js'
import {parseForwardUrl} from './routes.js'
import {webhookScope} from './scope.js'
import {resolveThisMachine} from './this-machine.js'
import {buildCases, CASE_NAMES, deliveryCount, type CaseName, type TestCase} from './grade/cases.js'
import {renderJson, renderReport} from './grade/render.js'
import {createSender, type Answer, type Sender} from './grade/send.js'
import {judge, type CaseResult} from './grade/verdicts.js'

export interface TestFlags {
  secret?: string
  only?: string
  timeout: string
}

export const URL_ARG = 'URL'

export async function webhooksTest(ctx: Context, rawUrl: string, flags: TestFlags): Promise<void> {
  const {io} = ctx
  // Every flag first: bad input never sends anything.
  const url = parseForwardUrl(rawUrl, URL_ARG)
  const only = parseOnly(flags.only)
  const timeoutMs = parseDuration(flags.timeout, 'timeout', {min: 1})
  if (flags.secret !== undefined && !secretKey(flags.secret)) {
    throw new InputError(t('hooktest.secret.malformed'), {field: 'secret', code: 'secret_malformed'})
  }
  const host = new URL(url).host
  const deliveries = only.reduce((sum, name) => sum + deliveryCount(name), 0)
  const machine = await resolveThisMachine(new URL(url).hostname)
  if (!machine.local) await confirmRemote(ctx, host, deliveries)

  let secret = flags.secret
  if (secret === undefined) {
    const scope = webhookScope(ctx)
    secret = await scope.localSecret()
    io.note(t('hooktest.secret.local', {scope: scope.name, secret: maskSecret(secret)}))
  } else io.note(t('hooktest.secret.flag', {secret: maskSecret(secret)}))
  io.note(t('hooktest.intro', {url, count: only.length, timeout: formatDuration(timeoutMs)}))

  const results = await runCases(ctx, url, buildCases(secret, only, new Date(ctx.clock.now())), timeoutMs, machine.addresses)
  await io.result(renderJson(url, results), async () => io.out(await renderReport(io, results)))
  // The report says what failed and why: only the exit code is left to give.
  if (results.some((result) => result.verdict === 'fail')) throw new Failure(ExitCode.FAILURE, {code: 'handler_failed'})
}

/** `--only a,b`: known case names, in the battery's order; exit 2 naming the flag otherwise. */
export function parseOnly(raw: string | undefined): CaseName[] {
  if (raw === undefined) return [...CASE_NAMES]
  const cases = CASE_NAMES.join(', ')
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
  if (names.length === 0) throw new InputError(t('hooktest.only.empty', {cases}), {field: 'only'})
  for (const name of names) {
    if (!(CASE_NAMES as readonly string[]).includes(name)) throw new InputError(t('hooktest.only.unknown', {value: name, cases}), {field: 'only'})
  }
  return CASE_NAMES.filter((name) => names.includes(name))
}

/** As for a LIVE key: ask on a terminal; without one, refuse (exit 2) unless --yes. */
async function confirmRemote(ctx: Context, host: string, count: number): Promise<void> {
  if (ctx.flags.yes) {
    ctx.io.warn(t('hooktest.remote.notice', {host}))
    return
  }
  if (!ctx.io.interactive) throw new InputError(t('hooktest.remote.refused', {host}), {field: 'yes', code: 'confirmation_required'})
  const ok = await ctx.prompter().confirm(t('hooktest.remote.confirm', {count, host}))
  if (!ok) throw new SvcError(t('hooktest.remote.declined'), {exitCode: ExitCode.USAGE, code: 'cancelled'})
}

/** One case after the other (clean latencies); a case's deliveries in order, or all at once (burst). */
async function runCases(ctx: Context, url: string, cases: TestCase[], timeoutMs: number, addresses: LookupAddress[]): Promise<CaseResult[]> {
  const sender: Sender = createSender(url, timeoutMs, addresses, ctx.clock)
  const spinner = ctx.io.json ? undefined : await ctx.io.spinner('')
  const results: CaseResult[] = []
  try {
    for (const testCase of cases) {
      spinner?.update(t('hooktest.sending', {name: testCase.name}))
      let answers: Answer[]
      if (testCase.parallel) answers = await Promise.all(testCase.deliveries.map((delivery) => sender.send(delivery)))
      else {
        answers = []
        for (const delivery of testCase.deliveries) answers.push(await sender.send(delivery))
      }
      // Refused at the first case: no handler runs there, and every other case would say the same.
      if (results.length === 0 && answers.every((answer) => answer.error === 'ECONNREFUSED')) {
        throw new SvcError(t('hooktest.notListening', {url}), {exitCode: ExitCode.FAILURE, code: 'handler_not_listening'})
      }
      results.push(judge(testCase, answers, {url, timeoutMs}))
    }
  } finally {
    spinner?.stop()
    sender.close()
  }
  return results
}
