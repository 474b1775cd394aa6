/**
 * The payment tools of `svc mcp`: create, get, list, wait, and the sandbox's test numbers; the
 * same flows as `svc pay …`. Imports the lib's own folders and the contract.
 */
import {SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {parseAmount} from '../payments/amount.js'
import {checkListLimit} from '../payments/cli.js'
import {createPayment, getPayment, listPayments, watchPayment} from '../payments/flows.js'
import {resolveOperator} from '../payments/operator.js'
import {normalisePhone} from '../payments/phone.js'
import {PAYMENT_STATUSES, type Payment} from '../payments/types.js'
import {formatDuration, parseDuration} from '../time/duration.js'
import {TEST_NUMBERS} from '../../contract/test-numbers.js'
import {ArgumentError, asArgument, optionalChoice, optionalInteger, optionalString, xafText} from './args.js'
import {AMOUNT, OPERATOR, PAYMENT_ID, PHONE, type ToolDefinition, code, paymentId, paymentSummary, quoted, read, schema, xaf} from './tool-kit.js'

export const paymentsCreate: ToolDefinition = {
  name: 'payments_create',
  description:
    "Collect mobile money: asks the customer's wallet (MTN or ORANGE, Cameroon) for a whole-XAF amount. The payment is PENDING until the customer approves on their phone; follow it with payments_wait. " +
    'It is sent once and never retried: if the answer is lost, svc looks for the payment in the list instead of prompting the customer twice, and says so when it cannot tell (outcome_unknown: do not call again; check payments_list first). ' +
    'On a LIVE key it is refused unless the server was started with --allow-live-writes. In the sandbox, sandbox_test_numbers lists numbers with fixed outcomes.',
  inputSchema: schema({amount: AMOUNT, phone: PHONE, operator: OPERATOR}, ['amount', 'phone']),
  annotations: {title: 'Collect a mobile money payment', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true},
  prepare(raw, {ctx}) {
    const args = read(raw, paymentsCreate)
    const amount = asArgument('amount', () => parseAmount(xafText(args, 'amount') ?? ''))
    const phone = asArgument('phone', () => normalisePhone(optionalString(args, 'phone') ?? ''))
    const {operator, warnings} = asArgument('operator', () => resolveOperator(phone, optionalString(args, 'operator')))
    return {
      liveAction: t('pay.live.action', {amount: xaf(amount), phone}),
      async execute() {
        const client = await ctx.client()
        let created
        try {
          created = await createPayment(client, {amount, phone, operator}, {listShape: async () => (await ctx.service()).lists.payments})
        } catch (error) {
          // The CLI's sentence, with the next step said in tools rather than commands.
          if (!(error instanceof SvcError) || error.code !== 'outcome_unknown') throw error
          throw new SvcError(error.message, {exitCode: error.exitCode, code: error.code, hint: t('mcp.hint.outcomeUnknown', {amount: xaf(amount), phone}), cause: error})
        }
        const {payment, recovered} = created
        const params = {id: quoted(payment.id), amount: xaf(payment.amount), phone: quoted(payment.phone_number), operator, status: code(payment.status)}
        const summary = [t(recovered ? 'mcp.summary.paymentRecovered' : 'mcp.summary.paymentCreated', params), ...warnings].join(' ')
        return {summary, data: {payment, recovered, ...(warnings.length > 0 ? {warnings} : {})}}
      },
    }
  },
}

export const paymentsGet: ToolDefinition = {
  name: 'payments_get',
  description: "A payment's current status (PENDING, SUCCESS, FAILED with its failure_code, or UNSPECIFIED), as `svc pay status`.",
  inputSchema: schema({id: PAYMENT_ID}, ['id']),
  annotations: {title: 'Get a payment', readOnlyHint: true, openWorldHint: false},
  prepare(raw, {ctx}) {
    const id = paymentId(read(raw, paymentsGet))
    return {
      async execute() {
        const payment = await getPayment(await ctx.client(), id)
        return {summary: paymentSummary(payment), data: {payment}}
      },
    }
  },
}

export const paymentsList: ToolDefinition = {
  name: 'payments_list',
  description: 'Payments, newest first, one page at a time (as `svc pay list`).',
  inputSchema: schema({
    status: {type: 'string', enum: [...PAYMENT_STATUSES], description: 'Only payments in this status.'},
    limit: {type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Payments per page (1–100).'},
    offset: {type: 'integer', minimum: 0, description: 'Skip this many payments (the next page starts at offset + limit).'},
  }),
  annotations: {title: 'List payments', readOnlyHint: true, openWorldHint: false},
  prepare(raw, {ctx}) {
    const args = read(raw, paymentsList)
    const status = optionalChoice(args, 'status', PAYMENT_STATUSES)
    const limit = optionalInteger(args, 'limit')
    asArgument('limit', () => checkListLimit(limit))
    const offset = optionalInteger(args, 'offset')
    if (offset !== undefined && offset < 0) throw new ArgumentError(t('mcp.error.integer', {name: 'offset'}), {field: 'offset'})
    return {
      async execute() {
        const listShape = (await ctx.service()).lists.payments
        const result = await listPayments(await ctx.client(), {status, limit, offset, listShape})
        const next = (offset ?? 0) + result.items.length
        const summary = result.hasMore ? t('mcp.summary.paymentsMore', {count: result.items.length, next}) : t('mcp.summary.payments', {count: result.items.length})
        return {summary, data: {payments: result.items, has_more: result.hasMore, ...(result.hasMore ? {next_offset: next} : {})}}
      },
    }
  },
}

export const paymentsWait: ToolDefinition = {
  name: 'payments_wait',
  description:
    'Wait for a payment to reach SUCCESS or FAILED (as `svc pay watch`), checking its status every interval. If it is still PENDING when the timeout ends, the result says so (not an error): call again to keep waiting. ' +
    'Keep the timeout under your client\'s request timeout (often 60 s); progress notifications are sent when a progress token is given.',
  inputSchema: schema(
    {
      id: PAYMENT_ID,
      timeout: {type: 'string', default: '50s', description: 'How long to wait: a duration such as 30s, 2m (at most 10m).'},
      interval: {type: 'string', default: '3s', description: 'Time between status checks: a duration of at least 250ms.'},
    },
    ['id'],
  ),
  annotations: {title: 'Wait for a payment to settle', readOnlyHint: true, openWorldHint: false},
  prepare(raw, {ctx, progress, signal}) {
    const args = read(raw, paymentsWait)
    const id = paymentId(args)
    const timeoutMs = asArgument('timeout', () => parseDuration(optionalString(args, 'timeout') ?? '50s', 'timeout', {max: 10 * 60_000}))
    const intervalMs = asArgument('interval', () => parseDuration(optionalString(args, 'interval') ?? '3s', 'interval', {min: 250}))
    return {
      async execute() {
        const client = await ctx.client()
        let payment: Payment
        try {
          payment = await watchPayment(client, id, {
            intervalMs,
            timeoutMs,
            clock: ctx.clock,
            // The client cancelling the call (notifications/cancelled) ends the wait at once.
            signal,
            onUpdate: (p) => progress(t('pay.watch.waiting', {id, status: p.status})),
          })
        } catch (error) {
          if (!(error instanceof SvcError) || error.code !== 'watch_timeout') throw error
          const last = await getPayment(client, id)
          return {summary: t('mcp.summary.paymentStillPending', {id: quoted(id), status: code(last.status), waited: formatDuration(timeoutMs)}), data: {payment: last, final: false}}
        }
        return {summary: paymentSummary(payment), data: {payment, final: true}}
      },
    }
  },
}

// ---------------------------------------------------------------------------------------------
// Invoices

export const sandboxTestNumbers: ToolDefinition = {
  name: 'sandbox_test_numbers',
  description:
    "The sandbox's test numbers and the outcome each always gives with its own operator (any other number settles randomly). Use them with payments_create on a sandbox key (svc_sk_test_…).",
  inputSchema: schema({}),
  annotations: {title: 'Sandbox test numbers', readOnlyHint: true, openWorldHint: false},
  prepare(raw) {
    read(raw, sandboxTestNumbers)
    return {
      async execute() {
        return {summary: t('mcp.summary.testNumbers', {count: TEST_NUMBERS.length}), data: {test_numbers: TEST_NUMBERS}}
      },
    }
  },
}
