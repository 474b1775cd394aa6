// The events page (each event's deliveries and attempts, delivered again) and the outbox page (each
// email or WhatsApp message, one as the customer reads it).
import type {OutboxMessage} from '../../../contract/sandbox-inspector.js'
import {api} from './admin.js'
import {act, h, isMissing, itemHref, link, missing, open, permalink, say, table, target, type Child} from './dom.js'
import {envFilter, filters} from './payments.js'
import {state, t, when} from './state.js'
import {rows, type EventRow, type OutboxRow} from './views.js'

export async function eventsPage(): Promise<Child[]> {
  const f = filters.events
  const events = rows<EventRow>(await api('GET /_admin/events', {query: {environment: f.environment, limit: 50}}))
  return [
    h('form', {class: 'filters', onsubmit: (event) => event.preventDefault()}, envFilter('events', f)),
    events.length === 0
      ? h('p', {class: 'empty'}, t('empty'))
      : h(
          'ul',
          {class: 'events'},
          events.map((e) =>
            h(
              'li',
              {},
              h('p', {}, h('strong', {}, e.type), ' ', h('span', {class: 'mono'}, e.id), ' · ', when(e.created_at)),
              h(
                'ul',
                {class: 'deliveries'},
                e.deliveries.map((d) =>
                  h(
                    'li',
                    {},
                    `${d.url} — ${d.status}`,
                    d.attempts.map((a) => h('div', {class: 'attempt'}, t('events.attempt', {attempt: a.attempt, result: a.status_code ?? a.error ?? '', ms: a.duration_ms}))),
                    d.status === 'pending' && d.next_attempt_at ? h('div', {class: 'attempt'}, t('events.next', {time: when(d.next_attempt_at)})) : null,
                  ),
                ),
              ),
              h(
                'button',
                {
                  type: 'button',
                  onclick: act(async () => {
                    const answer = await api('POST /_admin/events/{eventId}/redeliver', {params: {eventId: e.id}})
                    say(t('events.redelivered', {id: e.id, count: answer.data.length}))
                    state.render()
                  }),
                },
                t('events.redeliver'),
              ),
            ),
          ),
        ),
  ]
}

export async function outboxPage(): Promise<Child[]> {
  const f = filters.outbox
  const [list, detail] = await Promise.all([
    api('GET /_admin/outbox', {query: {environment: f.environment, limit: 50}}),
    target('GET /_admin/outbox/{messageId}/message', {params: {messageId: state.target}}),
  ])
  return [
    h('form', {class: 'filters', onsubmit: (event) => event.preventDefault()}, envFilter('outbox', f)),
    detail ? (isMissing(detail) ? missing(detail) : message(detail)) : null,
    table(
      [t('col.created'), t('col.channel'), t('col.recipient'), t('outbox.subject')],
      rows<OutboxRow>(list).map((m) =>
        h('tr', {}, h('td', {}, when(m.created_at)), h('td', {}, m.channel), h('td', {}, h('a', {href: itemHref('outbox', m.id)}, m.recipient)), h('td', {}, m.subject ?? m.text.slice(0, 60))),
      ),
      t('nav.outbox'),
    ),
  ]
}

function message(m: OutboxMessage): HTMLElement {
  const body = [
    h('div', {class: 'text', lang: m.language}, m.text),
    h(
      'p',
      {class: 'actions'},
      m.pay_url ? h('a', {class: 'pay', href: m.pay_url, target: '_blank', rel: 'noopener noreferrer'}, t('outbox.pay')) : null,
      ' ',
      m.pdf_url ? link(m.pdf_url, t('outbox.pdf')) : null,
    ),
    m.qr ? h('img', {class: 'qr', src: m.qr, alt: t('outbox.qr'), width: 160, height: 160}) : null,
  ]
  const actions = h('div', {class: 'actions'}, h('button', {type: 'button', onclick: () => open('outbox')}, t('close')), permalink('outbox', m.id))
  if (m.channel === 'WHATSAPP') return h('section', {id: 'detail', class: 'whatsapp', 'aria-label': m.recipient}, h('p', {class: 'to'}, m.recipient), h('div', {class: 'bubble'}, body), actions)
  return h(
    'section',
    {id: 'detail', class: 'email', 'aria-label': m.subject ?? m.recipient},
    h('dl', {class: 'facts'}, h('dt', {}, t('col.recipient')), h('dd', {}, m.recipient), h('dt', {}, t('outbox.subject')), h('dd', {}, m.subject ?? '')),
    body,
    actions,
  )
}
