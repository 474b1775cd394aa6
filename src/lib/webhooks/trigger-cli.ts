// The work of `svc webhooks trigger`: a real sandbox payment whose outcome makes the wanted event.
import type {Context} from '../context.js'
import {ExitCode, InputError, SvcError} from '../errors.js'
import {getLocale, statusLabel, t} from '../i18n/index.js'
import {maskSecret} from '../../contract/keys.js'
import {EVENT_TYPES, EVENTS, isEventType, type EventType} from '../../contract/events.js'

export interface TriggerFlags {
  operator?: 'MTN' | 'ORANGE'
  watch: boolean
}

const TRIGGER_AMOUNT = 1000

/**
 * A real sandbox payment with the spec's test number for the wanted outcome, so that the real
 * event follows. Sandbox keys only: on a LIVE key it would move real money (exit 2).
 */
export async function webhooksTrigger(ctx: Context, type: string, flags: TriggerFlags): Promise<void> {
  const {io} = ctx
  if (!isEventType(type)) {
    throw new InputError(t('webhooks.route.unknownType', {flag: 'EVENT', type, types: EVENT_TYPES.join(', ')}), {field: 'event'})
  }
  const eventType: EventType = type
  const key = ctx.requireKey()
  if (ctx.credentials().environment !== 'SANDBOX') {
    throw new InputError(t('webhooks.trigger.liveRefused', {key: maskSecret(key)}), {field: 'api-key', code: 'live_key'})
  }
  // The spec's test numbers settle SUCCESS or FAILED: the settlement this event announces.
  const outcome = EVENTS[eventType].status
  const operator = flags.operator ?? 'MTN'
  const {TEST_NUMBERS} = await import('../../contract/test-numbers.js')
  const number = TEST_NUMBERS.find((row) => row.operator === operator && row.outcome === outcome)
  if (!number) throw new SvcError(t('webhooks.trigger.noTestNumber', {operator, outcome}), {exitCode: ExitCode.FAILURE, code: 'no_test_number'})

  const {createPayment, watchPayment} = await import('../payments/flows.js')
  const {formatXaf} = await import('../payments/amount.js')
  const client = await ctx.client()
  const payment = await io.withSpinner(t('webhooks.trigger.sending', {type: eventType, phone: number.phone, operator}), async (spinner) => {
    const {payment: created} = await createPayment(
      client,
      {amount: TRIGGER_AMOUNT, phone: number.phone, operator},
      {listShape: async () => (await ctx.service()).lists.payments},
    )
    if (!flags.watch) return created
    spinner.update(t('webhooks.trigger.waiting', {id: created.id}))
    return watchPayment(client, created.id, {intervalMs: 250, timeoutMs: 5 * 60 * 1000, clock: ctx.clock})
  })
  // The hint is for someone not yet listening: not while a listener has the local sandbox's events.
  const {listenerRegistered} = await import('./running-listener.js')
  const listening = await listenerRegistered(ctx)
  await io.result(payment, async () => {
    const {renderPayment} = await import('../payments/render.js')
    io.out(await renderPayment(io, payment))
    const params = {id: payment.id, type: eventType, phone: number.phone, operator, outcome, amount: formatXaf(TRIGGER_AMOUNT, getLocale())}
    io.err(t(payment.status === 'PENDING' || payment.status === 'UNSPECIFIED' ? 'webhooks.trigger.created' : 'webhooks.trigger.settled', {...params, status: statusLabel(payment.status)}))
    if (listening !== true) io.err(t('webhooks.trigger.listenHint'))
  })
}
