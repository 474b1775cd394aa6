// The listener's reports as --json lines (snake_case, one object each): what `webhooks listen`
// prints per event, and `webhooks replay` for its one attempt.
import type {ForwardReport, PendingDelivery, ReceivedReport, RejectedReport} from './reports.js'

export function forwardJson(report: ForwardReport): Record<string, unknown> {
  const out: Record<string, unknown> = {
    kind: 'forward',
    at: report.at.toISOString(),
    event_id: report.eventId,
    type: report.type,
    url: report.url,
    attempt: report.attempt,
    ok: report.ok,
    status: report.status ?? null,
    latency_ms: Math.round(report.latencyMs * 100) / 100,
  }
  if (report.error) out.error = report.error
  if (report.retryInMs !== undefined) out.retry_in_ms = report.retryInMs
  if (report.environment) out.environment = report.environment
  return out
}

export function receivedJson(report: ReceivedReport): Record<string, unknown> {
  return {kind: 'received', at: report.at.toISOString(), event_id: report.eventId, type: report.type, source: report.source, outcome: report.outcome, ...(report.environment ? {environment: report.environment} : {})}
}

export function rejectedJson(report: RejectedReport): Record<string, unknown> {
  const out: Record<string, unknown> = {kind: 'rejected', at: report.at.toISOString(), reason: report.reason, message: report.message}
  if (report.header) out.header = report.header
  if (report.skewSeconds !== undefined) out.skew_seconds = report.skewSeconds
  if (report.webhookId) out.webhook_id = report.webhookId
  return out
}

export function pendingJson(pending: PendingDelivery): Record<string, unknown> {
  return {
    event_id: pending.eventId,
    type: pending.type,
    url: pending.url,
    attempts: pending.attempts,
    last_status: pending.lastStatus ?? null,
    last_error: pending.lastError ?? null,
  }
}
