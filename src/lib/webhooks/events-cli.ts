// The work of `svc webhooks events`: the local event log as a table (or --json), newest first.
import type {Context} from '../context.js'
import {InputError} from '../errors.js'
import {getLocale, t} from '../i18n/index.js'
import {quoteInput} from '../io/quote.js'
import {formatDateTime} from '../time/date.js'
import {EVENT_STATUSES, listLoggedEvents, type EventStatus, type ListedEvent} from './event-list.js'
import {webhookScope} from './scope.js'

export interface EventsFlags {
  status?: string
  limit: number
}

export async function webhooksEvents(ctx: Context, flags: EventsFlags): Promise<void> {
  const {io} = ctx
  if (flags.status !== undefined && !(EVENT_STATUSES as readonly string[]).includes(flags.status)) {
    throw new InputError(t('webhooks.events.badStatus', {value: quoteInput(flags.status), statuses: EVENT_STATUSES.join(', ')}), {field: 'status'})
  }
  if (!Number.isInteger(flags.limit) || flags.limit < 1 || flags.limit > 10_000) {
    throw new InputError(t('webhooks.events.badLimit', {value: String(flags.limit)}), {field: 'limit'})
  }
  const scope = webhookScope(ctx)
  // One more than asked for: whether there are more, for the hint on stderr (as every list gives).
  const read = await listLoggedEvents(scope.dir, {status: flags.status as EventStatus | undefined, limit: flags.limit + 1})
  const events = read.slice(0, flags.limit)
  await io.result(events, () => renderEvents(ctx, events, flags.status, scope.name))
  if (read.length > events.length) io.err(t('webhooks.events.more', {limit: flags.limit}))
}

async function renderEvents(ctx: Context, events: ListedEvent[], status: string | undefined, scopeName: string): Promise<void> {
  const {io} = ctx
  if (events.length === 0) {
    io.err(status ? t('webhooks.events.noneWithStatus', {status, scope: scopeName}) : t('webhooks.events.none', {scope: scopeName}))
    return
  }
  const paint = await io.paint()
  const locale = getLocale()
  const statusText = (status: EventStatus) => {
    const text = t(`webhooks.events.status.${status}`)
    if (status === 'failed') return paint.red(text)
    if (status === 'delivered') return paint.green(text)
    return paint.yellow(text)
  }
  const rows = events.map((event) => {
    const last = event.attempts[event.attempts.length - 1]
    const answer = !last ? '-' : last.status !== undefined ? String(last.status) : quoteInput(last.error ?? '-', 40)
    return [formatDateTime(event.received_at, locale), quoteInput(event.id, 80), quoteInput(event.type, 40), statusText(event.status), String(event.attempts.length), answer]
  })
  io.out(
    await io.table(
      [
        t('webhooks.events.col.received'),
        t('webhooks.events.col.id'),
        t('webhooks.events.col.type'),
        t('webhooks.events.col.status'),
        t('webhooks.events.col.attempts'),
        t('webhooks.events.col.answer'),
      ],
      rows,
      // The app's answer is cut first; then the attempts, the type and the time go; the id stays.
      [{priority: 4}, {kind: 'id'}, {priority: 3}, {priority: 1}, {priority: 5}, {kind: 'text', priority: 2}],
    ),
  )
}
