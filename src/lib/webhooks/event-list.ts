/**
 * The local event log as a list (what `listen` received, when, how the app answered, how many
 * attempts), each event with its status; newest first. Read only: listing never creates the log.
 */
import {readEventHistory, type EventHistory} from './event-log.js'

export const EVENT_STATUSES = ['delivered', 'pending', 'failed'] as const
export type EventStatus = (typeof EVENT_STATUSES)[number] | 'skipped'

/**
 * delivered: the app answered 2xx to an attempt (a replay included); failed: attempted, never
 * accepted (what `replay --all-failed` sends again); pending: not attempted yet; skipped: not
 * forwarded on purpose (not in --events, no route).
 */
export function eventStatus(event: EventHistory): EventStatus {
  if (event.delivered) return 'delivered'
  if (event.skipped) return 'skipped'
  return event.attempts.length > 0 ? 'failed' : 'pending'
}

export interface ListedEvent {
  id: string
  type: string
  received_at: string
  source: string
  status: EventStatus
  attempts: EventHistory['attempts']
}

/** The logged events of this directory with their status, newest first; `status` filters, `limit` keeps the newest. */
export async function listLoggedEvents(dir: string, options: {status?: EventStatus; limit?: number} = {}): Promise<ListedEvent[]> {
  const history = await readEventHistory(dir)
  const listed = history
    .map((event) => ({id: event.id, type: event.type, received_at: event.received_at, source: event.source, status: eventStatus(event), attempts: event.attempts}))
    .filter((event) => !options.status || event.status === options.status)
    .reverse()
  return options.limit === undefined ? listed : listed.slice(0, options.limit)
}
