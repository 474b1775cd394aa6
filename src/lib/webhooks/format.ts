/**
 * The listener's one line per event (time, type, id, the app's status, latency) and the other
 * sentences the webhooks commands print, from the catalogue. Colour is the command's business.
 */
import {EVENT_TYPES} from '../../contract/events.js'
import {t} from '../i18n/index.js'
import type {ForwardReport, PendingDelivery, ReceivedReport, RejectedReport} from './reports.js'

/** `850 ms`, `12 s`, `7 min 12 s`, `2 h 5 min`. */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms)
  if (abs < 1000) return t('webhooks.duration.ms', {n: Math.round(abs)})
  const totalSeconds = Math.round(abs / 1000)
  // Past two days, days and hours: "1104 d 15 h", not "26511 h 32 min".
  if (totalSeconds >= 2 * 86_400) {
    const days = Math.floor(totalSeconds / 86_400)
    const dayHours = Math.floor((totalSeconds % 86_400) / 3600)
    return [t('webhooks.duration.d', {n: days}), ...(dayHours ? [t('webhooks.duration.h', {n: dayHours})] : [])].join(' ')
  }
  const hours = Math.floor(totalSeconds / 3600)
  const minutes = Math.floor((totalSeconds % 3600) / 60)
  const seconds = totalSeconds % 60
  const parts: string[] = []
  if (hours) parts.push(t('webhooks.duration.h', {n: hours}))
  if (minutes) parts.push(t('webhooks.duration.min', {n: minutes}))
  if (seconds && !hours) parts.push(t('webhooks.duration.s', {n: seconds}))
  return parts.join(' ') || t('webhooks.duration.s', {n: 0})
}

/** `HH:MM:SS` local time. */
export function formatClock(at: Date): string {
  return at.toTimeString().slice(0, 8)
}

/**
 * Fixed column widths, so that the lines read as a table: the longest event type, an event id of
 * the service (`evt_` and 24 hex digits; a longer one pushes its line over), a latency up to
 * `99999.9`. The status column (`[200]`, or what happened instead) starts at the same place.
 */
const TYPE_WIDTH = Math.max(...EVENT_TYPES.map((type) => type.length))
const ID_WIDTH = 'evt_'.length + 24
const LATENCY_WIDTH = 7
const ENV_WIDTH = 'SANDBOX'.length

/**
 * The time, and after it the event's environment when it names one (`webhooks listen` on the local
 * sandbox forwards both: `14:02:11  LIVE     payment.success  evt_…`).
 */
function columns(report: {at: Date; type: string; eventId: string; environment?: string}): {time: string; type: string; id: string} {
  const time = report.environment ? `${formatClock(report.at)}  ${report.environment.padEnd(ENV_WIDTH)}` : formatClock(report.at)
  return {time, type: report.type.padEnd(TYPE_WIDTH), id: report.eventId.padEnd(ID_WIDTH)}
}

export function formatForwardReport(report: ForwardReport): string {
  const base = {...columns(report), attempt: report.attempt}
  const latency = report.latencyMs.toFixed(1).padStart(LATENCY_WIDTH)
  if (report.ok) return t('webhooks.listen.forwarded', {...base, status: report.status, latency})
  const retryIn = report.retryInMs === undefined ? '-' : formatDuration(report.retryInMs)
  if (report.status === undefined) return t('webhooks.listen.unreachable', {...base, error: report.error, retryIn})
  return t('webhooks.listen.retrying', {...base, status: report.status, latency, retryIn})
}

/** A line for the receipts that are not forwarded (duplicates, filtered, no route); undefined otherwise. */
export function formatReceivedReport(report: ReceivedReport): string | undefined {
  const params = columns(report)
  if (report.outcome === 'duplicate') return t('webhooks.listen.duplicate', params)
  if (report.outcome === 'filtered') return t('webhooks.listen.filtered', params)
  if (report.outcome === 'no_route') return t('webhooks.listen.noRoute', params)
  return undefined
}

export function formatRejectedReport(report: RejectedReport): string {
  return t('webhooks.listen.rejected', {time: formatClock(report.at), message: report.message})
}

/** What Ctrl-C prints: the events still pending, or that there are none. */
export function formatPendingSummary(pending: readonly PendingDelivery[]): string {
  if (pending.length === 0) return t('webhooks.listen.nonePending')
  const ids = pending.slice(0, 10).map((p) => p.eventId).join(', ') + (pending.length > 10 ? ', …' : '')
  return t('webhooks.listen.pending', {count: pending.length, ids})
}
