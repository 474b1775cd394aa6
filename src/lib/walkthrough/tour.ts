/**
 * `svc sandbox walkthrough`: a narrated tour of the whole flow against a sandbox: a payment that
 * succeeds, one that fails (with its failure_code), the signed events that fired, and an invoice
 * created, published, paid on its checkout page and PAID. Each step checks what the spec says
 * should happen; the tour exits 0 only if every step did.
 *
 * Where: the sandbox of the selected credentials when they hold a sandbox key (events are shown
 * when that sandbox is the one `svc sandbox serve` runs, whose admin surface can register an
 * endpoint); otherwise a local sandbox started in-process, so it needs no key and no network.
 */
import type {ApiClient} from '../api/index.js'
import {eventTypeForStatus} from '../../contract/events.js'
import type {Context} from '../context.js'
import {ExitCode, Failure, SvcError} from '../errors.js'
import {failureSentence, statusLabel, t, type MessageKey} from '../i18n/index.js'
import {adminClientFor, type AdminClient} from '../sandbox-admin/admin.js'
import {findRunningSandbox} from '../sandbox-admin/running.js'
import {formatXaf} from '../payments/amount.js'
import {createPayment, watchPayment} from '../payments/flows.js'
import type {Payment} from '../payments/types.js'
import {getLocale} from '../i18n/index.js'
import {startEventReceiver, type EventReceiver} from './receiver.js'
import {payInvoiceOnCheckout, type InvoiceLeg} from './invoice-leg.js'

export interface StepResult {
  step: string
  expected: string
  got: string
  ok: boolean
}

interface Target {
  kind: 'in-process' | 'profile'
  baseUrl: string
  apiKey: string
  admin?: AdminClient
  /** In process because the profile's local sandbox is not running (its address and profile). */
  stopped?: {url: string; profile: string}
  close(): Promise<void>
}

export interface WalkthroughOptions {
  settleAfterMs: number
  /** How long to wait for a payment to settle or an event to arrive. */
  patienceMs: number
}

async function chooseTarget(ctx: Context, options: WalkthroughOptions): Promise<Target> {
  const creds = ctx.credentials()
  let stopped: Target['stopped']
  if (creds.apiKey && creds.environment === 'SANDBOX') {
    const state = findRunningSandbox(ctx)
    let admin: AdminClient | undefined
    if (state) {
      admin = adminClientFor(await ctx.clientFor(undefined, state.base_url, {ratePerMinute: 0}), state.admin_token)
    }
    // A profile left by a `serve` that has stopped: a tour of a dead address would only report
    // "spec violations". Say so and tour a sandbox of our own instead.
    if (state || !(await isStoppedLocalSandbox(ctx, creds.baseUrl))) {
      return {kind: 'profile', baseUrl: creds.baseUrl, apiKey: creds.apiKey, admin, close: async () => {}}
    }
    stopped = {url: creds.baseUrl, profile: creds.profileName ?? '-'}
  }
  const {startSandbox} = await import('../../sandbox/index.js')
  const sandbox = await startSandbox({port: 0, settleAfterMs: options.settleAfterMs, seed: 2026, clock: ctx.clock})
  const client = await ctx.clientFor(undefined, sandbox.url, {ratePerMinute: 0})
  return {
    kind: 'in-process',
    baseUrl: sandbox.url,
    apiKey: sandbox.keys.sandbox,
    admin: adminClientFor(client, sandbox.adminToken),
    stopped,
    close: () => sandbox.close(),
  }
}

/**
 * Whether the credentials point at a local sandbox that is not running: the profile was saved by
 * `svc sandbox serve` (or the address is this machine's) and nothing answers there.
 */
async function isStoppedLocalSandbox(ctx: Context, baseUrl: string): Promise<boolean> {
  const savedByServe = ctx.credentials().profile?.local_sandbox !== undefined
  const host = new URL(baseUrl).hostname
  if (!savedByServe && !['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host)) return false
  // Any answer, whatever its status, means something is there; only no answer means stopped.
  const probe = await ctx.clientFor(undefined, baseUrl, {ratePerMinute: 0, retry: {maxRetries: 0}, timeoutMs: 5000})
  try {
    await probe.request({method: 'GET', path: '/v1/openapi.json', auth: false})
    return false
  } catch (error) {
    return !(error instanceof SvcError && error.status !== undefined)
  } finally {
    await probe.close()
  }
}

export async function runWalkthrough(ctx: Context, options: WalkthroughOptions): Promise<void> {
  const {io} = ctx
  const say = (key: MessageKey, params?: Record<string, string | number>) => io.note(t(key, params))
  const results: StepResult[] = []
  const record = (step: MessageKey, expected: string, got: string, ok: boolean) => {
    results.push({step: t(step), expected, got, ok})
    io.note(`   ${ok ? '✓' : '✗'} ${t('walk.expectedGot', {expected, got})}`)
  }

  say('walk.intro')
  const target = await chooseTarget(ctx, options)
  if (target.stopped) say('walk.target.stopped', {url: target.baseUrl, stopped: target.stopped.url, profile: target.stopped.profile})
  else say(target.kind === 'in-process' ? 'walk.target.inProcess' : 'walk.target.profile', {url: target.baseUrl})
  const client: ApiClient = await ctx.clientFor(target.apiKey, target.baseUrl)
  let receiver: EventReceiver | undefined
  let endpointId: string | undefined
  try {
    // Events: our own endpoint, registered through the dashboard stand-in.
    if (target.admin) {
      receiver = await startEventReceiver(ctx.clock)
      const endpoint = await target.admin.call('POST /_admin/webhook-endpoints', {body: {url: receiver.url, environment: 'SANDBOX'}})
      endpointId = endpoint.id
      receiver.setSecret(endpoint.secret)
      say('walk.events.listening', {url: receiver.url})
    } else say('walk.events.unavailable')

    const watch = {intervalMs: 250, timeoutMs: options.patienceMs, clock: ctx.clock}
    const follow = async (
      narration: MessageKey,
      step: MessageKey,
      phone: string,
      operator: 'MTN' | 'ORANGE',
      amount: number,
      expected: 'SUCCESS' | 'FAILED',
    ) => {
      say(narration, {phone, operator, amount: formatXaf(amount, getLocale())})
      try {
        const {payment} = await createPayment(client, {amount, phone, operator})
        record('walk.check.created', statusLabel('PENDING'), `${statusLabel(payment.status)} ${payment.id}`, payment.status === 'PENDING')
        const final: Payment = await watchPayment(client, payment.id, watch)
        const got = final.failure_code ? `${statusLabel(final.status)} (${final.failure_code})` : statusLabel(final.status)
        const ok = final.status === expected && (expected === 'SUCCESS' || Boolean(final.failure_code))
        record(step, expected === 'FAILED' ? `${statusLabel('FAILED')} (failure_code)` : statusLabel(expected), got, ok)
        return final
      } catch (error) {
        // A step that errs is a step that did not behave: say so and go on with the tour.
        record(step, statusLabel(expected), ctx.redact((error as Error).message), false)
        return undefined
      }
    }

    const success = await follow('walk.pay.success', 'walk.step.success', '237670000001', 'MTN', 5000, 'SUCCESS')
    const failed = await follow('walk.pay.failed', 'walk.step.failed', '237650000099', 'ORANGE', 2500, 'FAILED')
    if (failed?.failure_code) {
      say('walk.pay.failureCode', {code: failed.failure_code})
      say('walk.pay.failureMeaning', {sentence: failureSentence(failed.failure_code)})
    }

    if (receiver && success && failed) {
      say('walk.events.waiting')
      const wanted = [
        {type: eventTypeForStatus('SUCCESS'), paymentId: success.id},
        {type: eventTypeForStatus('FAILED'), paymentId: failed.id},
      ]
      const arrived = await receiver.waitFor(
        (events) => wanted.every((w) => events.some((e) => e.type === w.type && e.paymentId === w.paymentId && e.verified)),
        options.patienceMs,
      )
      for (const w of wanted) {
        const event = receiver.events.find((e) => e.type === w.type && e.paymentId === w.paymentId)
        record(
          'walk.check.event',
          t('walk.event.expected', {type: w.type}),
          event ? `${event.type} ${event.id} ${event.verified ? t('walk.event.verified') : t('walk.event.unverified', {reason: event.reason ?? ''})}` : t('walk.event.none'),
          arrived && Boolean(event?.verified),
        )
      }
    }

    const leg: InvoiceLeg = await payInvoiceOnCheckout(ctx, client, {
      say,
      record,
      patienceMs: options.patienceMs,
    })
    if (leg.skipped) say('walk.invoice.unavailable')
  } finally {
    if (endpointId && target.admin) await target.admin.call('DELETE /_admin/webhook-endpoints/{endpointId}', {params: {endpointId}}).catch(() => undefined)
    await receiver?.close()
    await client.close()
    await target.close()
  }

  const ok = results.every((r) => r.ok)
  await io.result({ok, base_url: target.baseUrl, steps: results, next: nextSteps()}, async () => {
    io.out(
      await io.table(
        [t('walk.col.step'), t('walk.col.expected'), t('walk.col.got'), t('walk.col.ok')],
        results.map((r) => [r.step, r.expected, r.got, r.ok ? '✓' : '✗']),
        // What came back holds the ids: whole. The step and what was expected are cut; then what was expected goes.
        [{kind: 'text', priority: 1}, {kind: 'text', priority: 3}, {priority: 2}, {priority: 0}],
      ),
    )
    say(ok ? 'walk.done.ok' : 'walk.done.failed')
    for (const line of nextSteps()) io.err(`  ${line}`)
  })
  // The table says which step misbehaved; the exit code says that one did.
  if (!ok) throw new Failure(ExitCode.FAILURE)
}

function nextSteps(): string[] {
  return [t('walk.next.serve'), t('walk.next.pay'), t('walk.next.invoice'), t('walk.next.listen'), t('walk.next.login')]
}
