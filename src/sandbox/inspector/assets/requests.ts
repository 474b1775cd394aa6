// The requests page: the app's requests as they happen (svc's own with the toggle), one whole with
// its headers and bodies, as curl or svc, and sent again.
import type {JournalEntry} from '../../../contract/sandbox-inspector.js'
import {api} from './admin.js'
import {act, field, formOf, h, isMissing, itemHref, missing, open, permalink, say, select, table, target, type Child} from './dom.js'
import {locale, state, t, when} from './state.js'

export const filters = {requests: {} as Record<string, string>}

const shellQuote = (text: string): string => `'${String(text).replace(/'/g, `'\\''`)}'`
const pathOf = (entry: JournalEntry): string => `${entry.path}${entry.query ? `?${entry.query}` : ''}`
function asCurl(entry: JournalEntry): string {
  const parts = [`curl -X ${entry.method} ${shellQuote(`${location.origin}${pathOf(entry)}`)}`]
  if (entry.key) parts.push(`-H "x-api-key: $SVC_API_KEY"`)
  if (entry.idempotency_key) parts.push(`-H ${shellQuote(`idempotency-key: ${entry.idempotency_key}`)}`)
  if (entry.request_body !== null) parts.push(`-H 'content-type: application/json'`, `--data ${shellQuote(entry.request_body)}`)
  return parts.join(' \\\n  ')
}
function asSvc(entry: JournalEntry): string {
  const parts = [`svc api ${entry.method} ${pathOf(entry)}`]
  if (entry.request_body !== null) parts.push(`--data ${shellQuote(entry.request_body)}`)
  if (entry.idempotency_key) parts.push(`--idempotency-key ${shellQuote(entry.idempotency_key)}`)
  return parts.join(' ')
}
const headerList = (headers: Record<string, string>): HTMLElement =>
  h(
    'pre',
    {},
    Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
  )
function pretty(body: string | null): string {
  if (body === null) return ''
  try {
    return JSON.stringify(JSON.parse(body), null, 2)
  } catch {
    return body
  }
}

function requestDetail(entry: JournalEntry): HTMLElement {
  const command = h('pre', {class: 'command', hidden: true})
  const show = (text: string) => async () => {
    command.hidden = false
    command.textContent = text
    try {
      await navigator.clipboard.writeText(text)
      say(t('request.copied'))
    } catch {
      // No clipboard (an insecure context, a headless browser): the command is shown to copy.
    }
  }
  return h(
    'section',
    {id: 'detail', class: 'detail', 'aria-labelledby': 'detail-title'},
    h('h2', {id: 'detail-title'}, t('request.title', {id: entry.id})),
    h('p', {}, `${entry.method} ${pathOf(entry)} → ${entry.status} · ${entry.duration_ms} ms · ${when(entry.at)}`),
    entry.key ? h('p', {}, `${t('col.key')}: ${entry.key} (${entry.environment})`) : null,
    entry.truncated ? h('p', {class: 'note'}, t('request.truncated')) : null,
    h(
      'div',
      {class: 'actions'},
      h('button', {type: 'button', onclick: show(asCurl(entry))}, t('request.copyCurl')),
      h('button', {type: 'button', onclick: show(asSvc(entry))}, t('request.copySvc')),
      h(
        'button',
        {
          type: 'button',
          onclick: act(async () => {
            const answer = await api('POST /_admin/requests/{requestId}/replay', {params: {requestId: entry.id}})
            say(t('request.replayed', {id: answer.request?.id ?? '', status: answer.request?.status ?? ''}))
          }),
        },
        t('request.replay'),
      ),
      h('button', {type: 'button', onclick: () => open('requests')}, t('close')),
      permalink('requests', entry.id),
    ),
    command,
    h('h3', {}, t('request.requestHeaders')),
    headerList(entry.request_headers),
    entry.request_body !== null ? [h('h3', {}, t('request.requestBody')), h('pre', {}, pretty(entry.request_body))] : null,
    h('h3', {}, t('request.responseHeaders')),
    headerList(entry.response_headers),
    entry.response_body !== null ? [h('h3', {}, t('request.responseBody')), h('pre', {}, pretty(entry.response_body))] : null,
  )
}

/**
 * The request shown whole, kept across live updates: an answered request never changes, so a page
 * redrawn because something else happened keeps the same element, and what the person opened in it
 * (a command shown to copy) stays as it was.
 */
let shown: {id: string; node: HTMLElement} | undefined

function detailOf(entry: JournalEntry): HTMLElement {
  if (shown?.id !== entry.id) shown = {id: entry.id, node: requestDetail(entry)}
  return shown.node
}

export async function requestsPage(): Promise<Child[]> {
  const f = filters.requests
  // The app's requests; svc's own (listen, stand-in commands, this page) with the toggle.
  const all = f.all === 'on'
  const [list, detail] = await Promise.all([
    api('GET /_admin/requests', {query: {method: f.method, path: f.path, status: f.status, all: all || undefined, limit: 100, summary: true}}),
    target('GET /_admin/requests/{requestId}', {params: {requestId: state.target}}),
  ])
  const rows = list.data.map((e) =>
    h(
      'tr',
      {class: e.status >= 400 ? 'failed' : ''},
      h('td', {}, new Date(e.at).toLocaleTimeString(locale())),
      h('td', {}, e.method),
      h('td', {class: 'path'}, h('a', {href: itemHref('requests', e.id)}, pathOf(e))),
      h('td', {}, String(e.status)),
      h('td', {class: 'num'}, `${e.duration_ms} ms`),
      h('td', {}, e.key ?? ''),
      all ? h('td', {}, t(`origin.${e.origin ?? 'app'}`)) : null,
    ),
  )
  const refilter = act(async (event) => ((filters.requests = formOf(event)), state.render()))
  return [
    h(
      'form',
      {class: 'filters', onsubmit: refilter},
      field(t('filter.method'), select('method', [['', '—'], ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m): [string, string] => [m, m])], f.method)),
      field(t('filter.path'), h('input', {name: 'path', value: f.path ?? '', placeholder: '/v1/payments'})),
      field(t('filter.status'), h('input', {name: 'status', value: f.status ?? '', placeholder: '4xx'})),
      h('label', {class: 'check'}, h('input', {type: 'checkbox', name: 'all', checked: all, onchange: refilter}), t('filter.all')),
      h('button', {type: 'submit'}, t('filter')),
    ),
    detail ? (isMissing(detail) ? missing(detail) : detailOf(detail)) : null,
    table(
      [t('col.time'), t('col.method'), t('col.path'), t('col.status'), t('col.duration'), t('col.key'), all ? t('col.origin') : null].filter((x): x is string => Boolean(x)),
      rows,
      t('nav.requests'),
    ),
  ]
}
