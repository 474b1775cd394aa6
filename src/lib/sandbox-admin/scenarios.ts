/**
 * The scenario stand-ins: `svc sandbox numbers list|set|remove`, `operator down|up`,
 * `faults set|list|clear`. Flags are checked here (nothing is sent on bad input), each action is
 * one admin request, and the output is the admin surface's JSON with --json.
 */
import type {FaultRequest, NumberUpdate} from '../../contract/sandbox-admin-routes.js'
import type {Context} from '../context.js'
import {InputError} from '../errors.js'
import {statusLabel, t} from '../i18n/index.js'
import {parseDuration} from '../time/duration.js'
import {localAdmin} from './admin.js'
import {renderObject, renderRows, show} from './dashboard.js'

type Row = Record<string, unknown>

export interface NumberScript {
  operator: string
  outcome: string
  then?: string
  after?: string
  'failure-code'?: string
}

export async function numbersList(ctx: Context): Promise<void> {
  const body = await (await localAdmin(ctx)).call('GET /_admin/numbers')
  await ctx.io.result(body.data, async () => {
    const rows = body.data.map((row) => ({
      ...row,
      outcome: row.then ? `${statusLabel(String(row.outcome))} → ${statusLabel(String(row.then))} (${Number(row.after_ms) / 1000} s)` : statusLabel(String(row.outcome)),
      kind: t(row.scripted ? 'local.numbers.scripted' : 'local.numbers.fixed'),
    }))
    ctx.io.out(await renderRows(ctx, rows, ['operator', 'phone_number', 'outcome', 'failure_code', 'kind']))
  })
}

export async function numbersSet(ctx: Context, number: string, flags: NumberScript): Promise<void> {
  if (flags.then !== undefined && flags.outcome !== 'UNSPECIFIED') throw new InputError(t('local.numbers.thenOnly'), {field: 'then'})
  if (flags.after !== undefined && flags.then === undefined) throw new InputError(t('local.numbers.afterOnly'), {field: 'after'})
  if (flags['failure-code'] !== undefined && flags.outcome !== 'FAILED' && flags.then !== 'FAILED')
    throw new InputError(t('local.numbers.codeOnly'), {field: 'failure-code'})
  const body: NumberUpdate = {
    operator: flags.operator as NumberUpdate['operator'],
    outcome: flags.outcome as NumberUpdate['outcome'],
    ...(flags.then ? {then: flags.then as NumberUpdate['then']} : {}),
    ...(flags.after ? {after_ms: parseDuration(flags.after, 'after')} : {}),
    ...(flags['failure-code'] ? {failure_code: flags['failure-code'] as NumberUpdate['failure_code']} : {}),
  }
  const entry = await (await localAdmin(ctx)).call('PUT /_admin/numbers/{number}', {params: {number}, body})
  await ctx.io.result(entry, () => {
    ctx.io.out(renderObject({...entry}))
    ctx.io.note(t('local.numbers.set', {number: String(entry.phone_number)}))
  })
}

export async function numbersRemove(ctx: Context, number: string): Promise<void> {
  await show(ctx, await (await localAdmin(ctx)).call('DELETE /_admin/numbers/{number}', {params: {number}}))
}

export async function operatorDown(ctx: Context, operator: string, flags: {for?: string; mode: string}): Promise<void> {
  const forMs = flags.for === undefined ? undefined : parseDuration(flags.for, 'for', {min: 1})
  const body = await (await localAdmin(ctx)).call('POST /_admin/operators/{operator}/down', {
    params: {operator},
    body: {mode: flags.mode as 'fail' | 'unspecified' | 'slow', ...(forMs ? {for_ms: forMs} : {})},
  })
  await ctx.io.result(body, () => {
    ctx.io.out(renderObject(body.outage as Row))
    ctx.io.note(t('local.operator.down', {operator}))
  })
}

export async function operatorUp(ctx: Context, operator: string): Promise<void> {
  const body = await (await localAdmin(ctx)).call('POST /_admin/operators/{operator}/up', {params: {operator}})
  await ctx.io.result(body, () => ctx.io.note(t('local.operator.up', {operator, count: Number(body.payments_resolving)})))
}

export interface FaultFlags {
  route?: string
  latency?: string
  error?: string
  deliveries?: string
  rate?: string
  delay?: string
  for?: string
}

function parseRate(input: string): number {
  const value = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(input.trim()) ? Number(input) : Number.NaN
  if (!(value > 0 && value <= 1)) throw new InputError(t('local.faults.rate', {value: input}), {field: 'rate'})
  return value
}

export async function faultsSet(ctx: Context, flags: FaultFlags): Promise<void> {
  if (flags.deliveries !== undefined) {
    for (const flag of ['route', 'latency', 'error'] as const)
      if (flags[flag] !== undefined) throw new InputError(t('local.faults.apiOrDeliveries', {flag: `--${flag}`}), {field: flag})
    if (flags.delay !== undefined && flags.deliveries !== 'delay' && flags.deliveries !== 'reorder')
      throw new InputError(t('local.faults.delayOnly'), {field: 'delay'})
  } else {
    if (flags.latency === undefined && flags.error === undefined) throw new InputError(t('local.faults.kind'), {field: 'error'})
    if (flags.delay !== undefined) throw new InputError(t('local.faults.delayOnly'), {field: 'delay'})
  }
  let route: string | undefined
  if (flags.route !== undefined) {
    const match = /^\s*(GET|POST|PUT|PATCH|DELETE)\s+(\/\S*)\s*$/i.exec(flags.route)
    if (!match) throw new InputError(t('local.faults.route', {value: flags.route}), {field: 'route'})
    route = `${match[1].toUpperCase()} ${match[2]}`
  }
  const body = {
    ...(route ? {route} : {}),
    ...(flags.latency !== undefined ? {latency_ms: parseDuration(flags.latency, 'latency', {max: 120_000})} : {}),
    // Flag options the command declares: the same lists as the contract's.
    ...(flags.error !== undefined ? {error: flags.error as FaultRequest['error']} : {}),
    ...(flags.deliveries !== undefined ? {deliveries: flags.deliveries as FaultRequest['deliveries']} : {}),
    ...(flags.delay !== undefined ? {delay_ms: parseDuration(flags.delay, 'delay', {min: 1})} : {}),
    ...(flags.rate !== undefined ? {rate: parseRate(flags.rate)} : {}),
    ...(flags.for !== undefined ? {for_ms: parseDuration(flags.for, 'for', {min: 1})} : {}),
  }
  const fault = (await (await localAdmin(ctx)).call('POST /_admin/faults', {body})) as Row
  await ctx.io.result(fault, () => {
    ctx.io.out(renderObject(fault))
    ctx.io.note(t('local.faults.set', {id: String(fault.id)}))
  })
}

export async function faultsList(ctx: Context): Promise<void> {
  const body = await (await localAdmin(ctx)).call('GET /_admin/faults')
  await show(ctx, body, ['id', 'target', 'route', 'error', 'latency_ms', 'deliveries', 'delay_ms', 'rate', 'until', 'injected'], 'local.faults.none')
}

export async function faultsClear(ctx: Context, id: string | undefined): Promise<void> {
  const admin = await localAdmin(ctx)
  const body = id ? await admin.call('DELETE /_admin/faults/{faultId}', {params: {faultId: id}}) : await admin.call('DELETE /_admin/faults')
  await ctx.io.result(body, () => ctx.io.note(t('local.faults.cleared', {count: body.data.length})))
}
