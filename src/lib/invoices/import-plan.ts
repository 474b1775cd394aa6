/**
 * `svc invoice import`, the plan: how many requests the rows to do will send (a create each, and
 * a publish each with --publish) and how long that takes at the pace the client keeps (--rate,
 * SVC_RATE_LIMIT, else the service's 100 a minute), said by --dry-run and, for a run of more than
 * a minute, when it starts ("150 invoices, 300 requests: about 3 min at 100/min").
 */
import type {Context} from '../context.js'
import {t} from '../i18n/index.js'

export interface ImportPlan {
  invoices: number
  requests: number
  /** Requests per minute; 0: no client-side pacing. */
  rate: number
  /** At that pace; undefined without pacing. */
  seconds?: number
}

/** The service's limit, requests a minute per key (the service's contract: "roughly 100"). */
export const SERVICE_RATE_LIMIT = 100

/** The pace the client will keep: --rate, else SVC_RATE_LIMIT, else the service's 100/min. */
export function rateOf(ctx: Context, flags: {rate?: number}): number {
  if (flags.rate !== undefined) return flags.rate
  const raw = ctx.env.SVC_RATE_LIMIT
  const value = raw === undefined || raw === '' ? NaN : Number(raw)
  return Number.isInteger(value) && value >= 0 ? value : SERVICE_RATE_LIMIT
}

export function importPlan(invoices: number, publish: boolean, rate: number): ImportPlan {
  const requests = invoices * (publish ? 2 : 1)
  return {invoices, requests, rate, seconds: rate > 0 ? Math.round((requests / rate) * 60) : undefined}
}

/** `about 40 s`, `about 3 min`, `about 3 h 20 min`. */
export function aboutDuration(seconds: number): string {
  if (seconds < 60) return t('invoice.duration.seconds', {s: Math.max(1, Math.round(seconds))})
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return t('invoice.duration.minutes', {m: minutes})
  return t('invoice.duration.hours', {h: Math.floor(minutes / 60), m: minutes % 60})
}

export function planText(plan: ImportPlan, key: 'invoice.import.plan' | 'invoice.import.estimate' = 'invoice.import.plan'): string {
  if (plan.seconds === undefined) return t('invoice.import.planUnpaced', {invoices: plan.invoices, requests: plan.requests})
  return t(key, {invoices: plan.invoices, requests: plan.requests, duration: aboutDuration(plan.seconds), rate: plan.rate})
}
