// The svc sandbox inspector: one script, no dependency, no inline code (the page's CSP allows
// only this file). Every value reaches the page through textContent or an attribute set by the
// DOM, never through HTML: a customer named <img src=x onerror=…> is shown as those characters.
// It reads and drives the sandbox through its admin surface (/_admin/…) with the session cookie;
// each state-changing request carries the session's CSRF token in the x-svc-csrf header, and every
// request says it is the inspector's (svc-origin: the request journal keeps it out of the app's view).
// Each request, payment and outbox message has its own address: #/requests/ID, #/payments/ID,
// #/outbox/ID.
'use strict'
;(() => {
  const state = {csrf: '', messages: {}, language: 'en', business: '', page: '', target: '', detail: null, live: null, pinNotes: {}}
  const main = document.getElementById('main')
  const status = document.getElementById('status')
  const PAGES = ['requests', 'payments', 'phone', 'events', 'outbox', 'settings']

  // Words ------------------------------------------------------------------------------------------
  const t = (key, params) =>
    (state.messages[`inspector.${key}`] ?? key).replace(/\{(\w+)\}/g, (_, name) => (params && name in params ? String(params[name]) : `{${name}}`))
  const locale = () => (state.language === 'fr' ? 'fr-FR' : 'en-GB')
  // Amounts as svc writes them everywhere: whole XAF, groups of three with plain spaces (12 500 XAF,
  // 12 500 FCFA in French).
  const xaf = (amount) => `${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ' ')} ${state.language === 'fr' ? 'FCFA' : 'XAF'}`
  // A status in the page's language (the words the CLI uses); an unknown one as it is.
  const statusWord = (status) => state.messages[`inspector.status.${status}`] ?? status
  // Dates as the CLI writes them: 2026-12-31 in English, 31/12/2026 in French; times in UTC.
  const day = (iso) => (state.language === 'fr' && /^\d{4}-\d{2}-\d{2}/.test(iso ?? '') ? `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` : (iso ?? ''))
  const when = (iso) => {
    if (!iso) return ''
    const utc = new Date(iso).toISOString()
    return `${day(utc.slice(0, 10))} ${utc.slice(11, 19)} UTC`
  }

  // The DOM, by construction ----------------------------------------------------------------------
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag)
    for (const [name, value] of Object.entries(attrs ?? {})) {
      if (value === undefined || value === null || value === false) continue
      if (name.startsWith('on')) node.addEventListener(name.slice(2), value)
      else if (name === 'class') node.className = value
      else node.setAttribute(name, value === true ? '' : String(value))
    }
    for (const child of children.flat(Infinity)) {
      if (child === undefined || child === null || child === false) continue
      node.append(child instanceof Node ? child : document.createTextNode(String(child)))
    }
    return node
  }
  const say = (text, bad) => {
    status.textContent = text
    status.className = bad ? 'bad' : ''
  }
  function table(headers, rows, caption) {
    if (rows.length === 0) return h('p', {class: 'empty'}, t('empty'))
    return h(
      'div',
      {class: 'scroll', role: 'region', 'aria-label': caption, tabindex: 0},
      h('table', {}, h('caption', {class: 'sr'}, caption), h('thead', {}, h('tr', {}, headers.map((x) => h('th', {scope: 'col'}, x)))), h('tbody', {}, rows)),
    )
  }
  const field = (label, control) => h('label', {class: 'field'}, h('span', {}, label), control)
  const select = (name, options, value) =>
    h('select', {name}, options.map(([v, text]) => h('option', {value: v, selected: v === value}, text)))
  const link = (href, text) => h('a', {href, target: '_blank', rel: 'noopener noreferrer'}, text)

  // The admin surface ------------------------------------------------------------------------------
  async function api(method, path, body) {
    const response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: {'x-svc-csrf': state.csrf, 'svc-origin': 'inspector', ...(body === undefined ? {} : {'content-type': 'application/json'})},
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    const data = text ? JSON.parse(text) : undefined
    if (!response.ok) {
      const error = new Error(data?.message ?? String(response.status))
      error.status = response.status
      throw error
    }
    return data
  }
  const query = (params) => {
    const q = new URLSearchParams()
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v))
    const text = q.toString()
    return text ? `?${text}` : ''
  }
  const act = (work) => async (event) => {
    event?.preventDefault?.()
    try {
      await work(event)
    } catch (error) {
      say(t('error', {message: error.message}), true)
    }
  }

  // Deep links: each page's item has its own address; the page opens it from there.
  const itemHref = (page, id) => `#/${page}/${encodeURIComponent(id)}`
  const open = (page, id) => {
    location.hash = id ? itemHref(page, id) : `#/${page}`
  }
  /** The item the address names, once per address (null once it is closed); {missing} when the sandbox has none. */
  async function target(path) {
    if (!state.target) return null
    if (!state.detail) {
      try {
        state.detail = await api('GET', path)
      } catch (error) {
        if (error.status !== 404) throw error
        state.detail = {missing: state.target}
      }
    }
    return state.detail
  }
  const missing = (detail) => h('p', {id: 'detail', class: 'detail bad'}, t('notFound', {id: detail.missing}))
  const permalink = (page, id) => h('a', {class: 'permalink', href: itemHref(page, id)}, t('link'))

  // Pages ------------------------------------------------------------------------------------------
  const filters = {requests: {}, payments: {environment: 'SANDBOX'}, events: {environment: 'SANDBOX'}, outbox: {environment: 'SANDBOX'}}

  function formOf(event) {
    return Object.fromEntries(new FormData(event.target.closest('form')))
  }

  const shellQuote = (text) => `'${String(text).replace(/'/g, `'\\''`)}'`
  function asCurl(entry) {
    const parts = [`curl -X ${entry.method} ${shellQuote(`${location.origin}${entry.path}${entry.query ? `?${entry.query}` : ''}`)}`]
    if (entry.key) parts.push(`-H "x-api-key: $SVC_API_KEY"`)
    if (entry.idempotency_key) parts.push(`-H ${shellQuote(`idempotency-key: ${entry.idempotency_key}`)}`)
    if (entry.request_body !== null) parts.push(`-H 'content-type: application/json'`, `--data ${shellQuote(entry.request_body)}`)
    return parts.join(' \\\n  ')
  }
  function asSvc(entry) {
    const parts = [`svc api ${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ''}`]
    if (entry.request_body !== null) parts.push(`--data ${shellQuote(entry.request_body)}`)
    if (entry.idempotency_key) parts.push(`--idempotency-key ${shellQuote(entry.idempotency_key)}`)
    return parts.join(' ')
  }
  const headerList = (headers) => h('pre', {}, Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\n'))
  function pretty(body) {
    if (body === null) return ''
    try {
      return JSON.stringify(JSON.parse(body), null, 2)
    } catch {
      return body
    }
  }

  function requestDetail(entry) {
    const command = h('pre', {class: 'command', hidden: true})
    const show = (text) => async () => {
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
      h('p', {}, `${entry.method} ${entry.path}${entry.query ? `?${entry.query}` : ''} → ${entry.status} · ${entry.duration_ms} ms · ${when(entry.at)}`),
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
              const answer = await api('POST', `/_admin/requests/${encodeURIComponent(entry.id)}/replay`)
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

  async function requestsPage() {
    const f = filters.requests
    // The app's requests; svc's own (listen, stand-in commands, this page) with the toggle.
    const all = f.all === 'on'
    const [list, detail] = await Promise.all([
      api('GET', `/_admin/requests${query({method: f.method, path: f.path, status: f.status, all: all ? 'true' : undefined, limit: 100, summary: true})}`),
      target(`/_admin/requests/${encodeURIComponent(state.target)}`),
    ])
    const rows = list.data.map((e) =>
      h(
        'tr',
        {class: e.status >= 400 ? 'failed' : ''},
        h('td', {}, new Date(e.at).toLocaleTimeString(locale())),
        h('td', {}, e.method),
        h('td', {class: 'path'}, h('a', {href: itemHref('requests', e.id)}, `${e.path}${e.query ? `?${e.query}` : ''}`)),
        h('td', {}, String(e.status)),
        h('td', {class: 'num'}, `${e.duration_ms} ms`),
        h('td', {}, e.key ?? ''),
        all ? h('td', {}, t(`origin.${e.origin ?? 'app'}`)) : null,
      ),
    )
    return [
      h(
        'form',
        {class: 'filters', onsubmit: act(async (event) => ((filters.requests = formOf(event)), render()))},
        field(t('filter.method'), select('method', [['', '—'], ...['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => [m, m])], f.method)),
        field(t('filter.path'), h('input', {name: 'path', value: f.path ?? '', placeholder: '/v1/payments'})),
        field(t('filter.status'), h('input', {name: 'status', value: f.status ?? '', placeholder: '4xx'})),
        h('label', {class: 'check'}, h('input', {type: 'checkbox', name: 'all', checked: all, onchange: act(async (event) => ((filters.requests = formOf(event)), render()))}), t('filter.all')),
        h('button', {type: 'submit'}, t('filter')),
      ),
      detail ? (detail.missing ? missing(detail) : requestDetail(detail)) : null,
      table([t('col.time'), t('col.method'), t('col.path'), t('col.status'), t('col.duration'), t('col.key'), all ? t('col.origin') : null].filter(Boolean), rows, t('nav.requests')),
    ]
  }

  const envFilter = (name, f) =>
    field(
      t('filter.environment'),
      h('select', {name: 'environment', onchange: (event) => ((filters[name] = {...filters[name], environment: event.target.value}), render())}, ['SANDBOX', 'LIVE'].map((e) => h('option', {value: e, selected: e === f.environment}, e))),
    )

  async function paymentsPage() {
    const f = filters.payments
    const [payments, invoices, balance, fees, ledger] = await Promise.all([
      api('GET', `/_admin/payments${query({environment: f.environment, status: f.status, limit: 50})}`),
      api('GET', `/_admin/invoices${query({environment: f.environment, limit: 50})}`),
      api('GET', `/_admin/balance${query({environment: f.environment})}`),
      api('GET', '/_admin/fees'),
      api('GET', `/_admin/ledger${query({environment: f.environment, limit: 20})}`),
    ])
    const b = balance.data[0] ?? {}
    const detail = await target(`/_admin/payments/${encodeURIComponent(state.target)}`)
    return [
      h(
        'form',
        {class: 'filters', onsubmit: (event) => event.preventDefault()},
        envFilter('payments', f),
        field(
          t('col.status'),
          h('select', {name: 'status', onchange: (event) => ((filters.payments = {...f, status: event.target.value}), render())}, [['', t('filter.statusAny')], ...['PENDING', 'SUCCESS', 'FAILED', 'UNSPECIFIED'].map((s) => [s, statusWord(s)])].map(([v, text]) => h('option', {value: v, selected: v === (f.status ?? '')}, text))),
        ),
      ),
      detail ? (detail.missing ? missing(detail) : details(detail, 'payments')) : null,
      h('h2', {}, t('payments.title'), ` (${payments.total})`),
      table(
        [t('col.id'), t('col.amount'), t('col.phone'), t('col.operator'), t('col.status'), t('col.created')],
        payments.data.map((p) => h('tr', {}, h('td', {class: 'mono'}, h('a', {href: itemHref('payments', p.id)}, p.id)), h('td', {class: 'num'}, xaf(p.amount)), h('td', {}, p.phone_number), h('td', {}, p.operator), h('td', {}, p.failure_code ? `${statusWord(p.status)} (${p.failure_code})` : statusWord(p.status)), h('td', {}, when(p.created_at)))),
        t('payments.title'),
      ),
      h('h2', {}, t('invoices.title'), ` (${invoices.total})`),
      table(
        [t('col.id'), t('col.customer'), t('col.amount'), t('col.status'), t('col.due'), ''],
        invoices.data.map((i) =>
          h('tr', {}, h('td', {class: 'mono'}, i.id), h('td', {}, i.customer_name), h('td', {class: 'num'}, xaf(i.total_amount)), h('td', {}, statusWord(i.status)), h('td', {}, day(i.due_date)), h('td', {class: 'links'}, i.pdf_url ? link(i.pdf_url, t('invoice.pdf')) : null, ' ', link(i.checkout_url, t('invoice.checkout')))),
        ),
        t('invoices.title'),
      ),
      h('h2', {}, t('balance.title')),
      h('dl', {class: 'facts'}, h('dt', {}, t('balance.available')), h('dd', {}, xaf(b.balance ?? 0)), h('dt', {}, t('balance.fees')), h('dd', {}, `${fees.mode === 'percent' ? `${fees.value} %` : xaf(fees.value)} · ${xaf(b.fees_total ?? 0)}`)),
      h('h2', {}, t('ledger.title')),
      table(
        [t('col.created'), t('col.type'), t('col.amount'), t('col.id')],
        ledger.data.map((e) => h('tr', {}, h('td', {}, when(e.created_at)), h('td', {}, e.type), h('td', {class: 'num'}, `${xaf(e.net_amount)} (${xaf(e.fee)})`), h('td', {class: 'mono'}, e.payment_id))),
        t('ledger.title'),
      ),
    ]
  }

  /** One object whole, field by field (a payment's details), with its address. */
  function details(object, page) {
    return h(
      'section',
      {id: 'detail', class: 'detail', 'aria-label': object.id},
      h('dl', {class: 'facts'}, Object.entries(object).map(([k, v]) => [h('dt', {}, k), h('dd', {class: 'mono'}, typeof v === 'object' ? JSON.stringify(v) : String(v))]).flat()),
      h('div', {class: 'actions'}, h('button', {type: 'button', onclick: () => open(page)}, t('close')), permalink(page, object.id)),
    )
  }

  let ringing = ''
  async function phonePage() {
    const calls = (await api('GET', '/_admin/phone')).data
    ringing = calls.map((c) => c.payment_id).join(',')
    if (calls.length === 0) return h('p', {class: 'empty'}, t('phone.idle'))
    return h(
      'div',
      {class: 'handsets'},
      calls.map((call) => {
        const pin = `pin-${call.payment_id}`
        const answer = (decline) =>
          act(async (event) => {
            const body = decline ? {decline: true} : {pin: formOf(event).pin ?? ''}
            const result = await api('POST', `/_admin/phone/${encodeURIComponent(call.payment_id)}/pin`, body)
            delete state.pinNotes[call.payment_id]
            if (result.status === 'FAILED' && result.failure_code) say(t('phone.locked', {id: call.payment_id, code: result.failure_code}))
            else if (body.decline) say(t('phone.declined', {id: call.payment_id}))
            // A wrong PIN is said on the handset itself, under the field it was typed in.
            else if (result.tries_left < 3 && result.status === 'PENDING') state.pinNotes[call.payment_id] = t('phone.wrongPin', {left: result.tries_left})
            else say(t('phone.approved', {id: call.payment_id}))
            render()
          })
        return h(
          'section',
          {class: `handset ${call.operator.toLowerCase()}`, 'aria-label': `${call.operator} ${call.phone}`},
          h('div', {class: 'operator'}, call.operator, h('span', {class: 'phone-number'}, call.phone)),
          h('p', {class: 'merchant'}, t('phone.incoming', {merchant: call.merchant})),
          h('p', {class: 'amount'}, xaf(call.amount)),
          h('p', {class: 'ref mono'}, call.payment_id),
          h(
            'form',
            {onsubmit: answer(false)},
            h('label', {for: pin}, t('phone.pin')),
            h('input', {id: pin, name: 'pin', type: 'password', inputmode: 'numeric', autocomplete: 'off', maxlength: 12, 'aria-describedby': state.pinNotes[call.payment_id] ? `${pin}-note` : undefined, 'aria-invalid': state.pinNotes[call.payment_id] ? 'true' : undefined}),
            state.pinNotes[call.payment_id] ? h('p', {id: `${pin}-note`, class: 'bad pin-note', role: 'alert'}, state.pinNotes[call.payment_id]) : null,
            h('p', {class: 'hint'}, t('phone.pinHint')),
            h('div', {class: 'actions'}, h('button', {type: 'submit', class: 'approve'}, t('phone.approve')), h('button', {type: 'button', class: 'decline', onclick: answer(true)}, t('phone.decline'))),
          ),
          h('p', {class: 'hint'}, t('phone.expires', {time: when(call.expires_at)})),
        )
      }),
    )
  }

  async function eventsPage() {
    const f = filters.events
    const events = await api('GET', `/_admin/events${query({environment: f.environment, limit: 50})}`)
    return [
      h('form', {class: 'filters', onsubmit: (event) => event.preventDefault()}, envFilter('events', f)),
      events.data.length === 0
        ? h('p', {class: 'empty'}, t('empty'))
        : h(
            'ul',
            {class: 'events'},
            events.data.map((e) =>
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
                  {type: 'button', onclick: act(async () => {
                    const answer = await api('POST', `/_admin/events/${encodeURIComponent(e.id)}/redeliver`)
                    say(t('events.redelivered', {id: e.id, count: answer.data.length}))
                    render()
                  })},
                  t('events.redeliver'),
                ),
              ),
            ),
          ),
    ]
  }

  async function outboxPage() {
    const f = filters.outbox
    const [list, detail] = await Promise.all([
      api('GET', `/_admin/outbox${query({environment: f.environment, limit: 50})}`),
      target(`/_admin/outbox/${encodeURIComponent(state.target)}/message`),
    ])
    return [
      h('form', {class: 'filters', onsubmit: (event) => event.preventDefault()}, envFilter('outbox', f)),
      detail ? (detail.missing ? missing(detail) : message(detail)) : null,
      table(
        [t('col.created'), t('col.channel'), t('col.recipient'), t('outbox.subject')],
        list.data.map((m) =>
          h('tr', {}, h('td', {}, when(m.created_at)), h('td', {}, m.channel), h('td', {}, h('a', {href: itemHref('outbox', m.id)}, m.recipient)), h('td', {}, m.subject ?? m.text.slice(0, 60))),
        ),
        t('nav.outbox'),
      ),
    ]
  }
  function message(m) {
    const body = [
      h('div', {class: 'text', lang: m.language}, m.text),
      h('p', {class: 'actions'}, m.pay_url ? h('a', {class: 'pay', href: m.pay_url, target: '_blank', rel: 'noopener noreferrer'}, t('outbox.pay')) : null, ' ', m.pdf_url ? link(m.pdf_url, t('outbox.pdf')) : null),
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

  async function settingsPage() {
    const [keys, endpoints, allowlist, business, fees, clock, operators, faults, numbers] = await Promise.all(
      ['/_admin/keys', '/_admin/webhook-endpoints', '/_admin/allowlist', '/_admin/business', '/_admin/fees', '/_admin/clock', '/_admin/operators', '/_admin/faults', '/_admin/numbers'].map((p) => api('GET', p)),
    )
    const reload = async (text) => {
      await render()
      if (text) say(text)
    }
    const envSelect = () => select('environment', [['SANDBOX', 'SANDBOX'], ['LIVE', 'LIVE']], 'SANDBOX')
    return [
      h('h2', {}, t('settings.keys')),
      state.secret ? h('p', {class: 'secret', role: 'alert'}, t('settings.secretOnce', {secret: state.secret})) : null,
      h(
        'form',
        {class: 'filters', onsubmit: act(async (event) => {
          const created = await api('POST', '/_admin/keys', {environment: formOf(event).environment})
          state.secret = created.secret
          await reload()
          state.secret = undefined
        })},
        field(t('col.environment'), envSelect()),
        h('button', {type: 'submit'}, t('settings.createKey')),
      ),
      table(
        [t('col.id'), t('col.key'), t('col.environment'), t('col.created'), ''],
        keys.data.map((k) =>
          h('tr', {}, h('td', {class: 'mono'}, k.id), h('td', {class: 'mono'}, k.key), h('td', {}, k.environment), h('td', {}, when(k.created_at)), h('td', {}, k.revoked ? t('settings.revoked') : h('button', {type: 'button', onclick: act(async () => reload(await api('POST', `/_admin/keys/${encodeURIComponent(k.id)}/revoke`) && t('settings.saved')))}, t('settings.revoke')))),
        ),
        t('settings.keys'),
      ),
      h('h2', {}, t('settings.endpoints')),
      h(
        'form',
        {class: 'filters', onsubmit: act(async (event) => {
          const data = formOf(event)
          await api('POST', '/_admin/webhook-endpoints', {url: data.url, environment: data.environment})
          await reload(t('settings.saved'))
        })},
        field(t('col.url'), h('input', {name: 'url', type: 'url', required: true, placeholder: 'http://127.0.0.1:3000/hooks'})),
        field(t('col.environment'), envSelect()),
        h('button', {type: 'submit'}, t('settings.addEndpoint')),
      ),
      table(
        [t('col.url'), t('col.environment'), t('col.id'), ''],
        endpoints.data.map((e) => h('tr', {}, h('td', {}, e.url), h('td', {}, e.environment), h('td', {class: 'mono'}, e.id), h('td', {}, h('button', {type: 'button', onclick: act(async () => (await api('DELETE', `/_admin/webhook-endpoints/${encodeURIComponent(e.id)}`), reload(t('settings.saved'))))}, t('settings.remove'))))),
        t('settings.endpoints'),
      ),
      h('h2', {}, t('settings.allowlist')),
      allowlist.data.length === 0 ? h('p', {class: 'empty'}, t('settings.allowlistEmpty')) : null,
      h('ul', {}, allowlist.data.map((entry) => h('li', {}, entry.cidr, ' ', h('button', {type: 'button', onclick: act(async () => (await api('DELETE', `/_admin/allowlist${query({cidr: entry.cidr})}`), reload(t('settings.saved'))))}, t('settings.remove'))))),
      h(
        'form',
        {class: 'filters', onsubmit: act(async (event) => (await api('POST', '/_admin/allowlist', {cidr: formOf(event).cidr}), reload(t('settings.saved'))))},
        field('CIDR', h('input', {name: 'cidr', required: true, placeholder: '127.0.0.1/32'})),
        h('button', {type: 'submit'}, t('settings.add')),
      ),
      h('h2', {}, t('settings.business')),
      h(
        'form',
        {class: 'filters', onsubmit: act(async (event) => {
          const data = formOf(event)
          await api('PUT', '/_admin/business', {name: data.name, language: data.language})
          await reload(t('settings.saved'))
        })},
        field(t('settings.name'), h('input', {name: 'name', value: business.name, required: true, maxlength: 100})),
        field(t('settings.customerLanguage'), select('language', [['en', 'English'], ['fr', 'Français']], business.language)),
        h('button', {type: 'submit'}, t('settings.save')),
      ),
      h('h2', {}, t('settings.fees')),
      h(
        'form',
        {class: 'filters', onsubmit: act(async (event) => {
          const data = formOf(event)
          await api('PUT', '/_admin/fees', {mode: data.mode, value: Number(data.value), absorb_fees: data.absorb_fees === 'on'})
          await reload(t('settings.saved'))
        })},
        field(t('settings.feeMode'), select('mode', [['percent', '%'], ['fixed', 'XAF']], fees.mode)),
        field(t('settings.feeValue'), h('input', {name: 'value', type: 'number', min: 0, step: 'any', value: fees.value, required: true})),
        h('label', {class: 'check'}, h('input', {type: 'checkbox', name: 'absorb_fees', checked: fees.absorb_fees}), t('settings.absorb')),
        h('button', {type: 'submit'}, t('settings.save')),
      ),
      h('h2', {}, t('settings.clock')),
      h('p', {}, when(clock.now)),
      h(
        'form',
        {class: 'filters', onsubmit: act(async (event) => (await api('POST', '/_admin/clock/advance', {ms: Math.round(Number(formOf(event).minutes) * 60_000)}), reload(t('settings.saved'))))},
        field(t('settings.advance'), h('input', {name: 'minutes', type: 'number', min: 1, value: 5, required: true})),
        h('button', {type: 'submit'}, t('settings.save')),
      ),
      h('h2', {}, t('settings.scenarios')),
      h('h3', {}, t('settings.numbers')),
      table(
        [t('col.phone'), t('col.operator'), t('col.status'), ''],
        numbers.data.map((n) => h('tr', {}, h('td', {class: 'mono'}, n.phone_number), h('td', {}, n.operator), h('td', {}, [n.outcome, n.then ? `→ ${n.then}` : '', n.failure_code ?? ''].filter(Boolean).join(' ')), h('td', {}, n.scripted ? h('button', {type: 'button', onclick: act(async () => (await api('DELETE', `/_admin/numbers/${encodeURIComponent(n.phone_number)}`), reload(t('settings.saved'))))}, t('settings.remove')) : ''))),
        t('settings.numbers'),
      ),
      h('h3', {}, t('settings.operators')),
      h('ul', {}, operators.data.map((o) => h('li', {}, t(o.up ? 'settings.operatorUp' : 'settings.operatorDown', {operator: o.operator}), ' ', h('button', {type: 'button', onclick: act(async () => (await api('POST', `/_admin/operators/${o.operator}/${o.up ? 'down' : 'up'}`), reload(t('settings.saved'))))}, t(o.up ? 'settings.takeDown' : 'settings.bringUp'))))),
      h('h3', {}, t('settings.faults')),
      faults.data.length === 0 ? h('p', {class: 'empty'}, t('empty')) : h('ul', {}, faults.data.map((f) => h('li', {}, `${f.id} ${f.route ?? f.deliveries ?? ''} ${f.error ?? ''}`, ' ', h('button', {type: 'button', onclick: act(async () => (await api('DELETE', `/_admin/faults/${encodeURIComponent(f.id)}`), reload(t('settings.saved'))))}, t('settings.remove'))))),
    ]
  }

  const RENDER = {requests: requestsPage, payments: paymentsPage, phone: phonePage, events: eventsPage, outbox: outboxPage, settings: settingsPage}

  // Frame ------------------------------------------------------------------------------------------
  function nav() {
    const list = h('ul', {}, [
      ...PAGES.map((p) => h('li', {}, h('a', {href: `#/${p}`, 'aria-current': p === state.page ? 'page' : undefined}, t(`nav.${p}`)))),
      // The API reference is a page of its own (Swagger UI on /v1/openapi.json).
      h('li', {}, h('a', {href: '/_reference/'}, t('nav.reference'))),
    ])
    document.getElementById('nav').replaceChildren(list)
    document.getElementById('nav').setAttribute('aria-label', t('nav'))
    document.getElementById('lang-label').textContent = t('language')
    document.getElementById('brand').textContent = state.business ? `${state.business} · svc sandbox` : 'svc sandbox'
    document.title = `${t(`nav.${state.page}`)} · ${t('title')}`
    document.documentElement.lang = state.language
  }

  let rendering = Promise.resolve()
  function render() {
    rendering = rendering.then(async () => {
      nav()
      const page = state.page
      try {
        const content = await RENDER[page]()
        if (page !== state.page) return
        main.replaceChildren(h('h1', {}, t(`nav.${page}`)), ...[content].flat().filter(Boolean))
      } catch (error) {
        main.replaceChildren(h('h1', {}, t(`nav.${page}`)), h('p', {class: 'bad'}, error.status === 401 ? t('loggedOut') : t('error', {message: error.message})))
      }
    })
    return rendering
  }

  // #/PAGE, or #/PAGE/ID for one request, payment or outbox message.
  function route() {
    const [page, ...rest] = location.hash.replace(/^#\/?/, '').split('/')
    const next = PAGES.includes(page) ? page : 'requests'
    let id = ''
    try {
      id = decodeURIComponent(rest.join('/'))
    } catch {
      // A mangled address: the page without an item.
    }
    if (next !== state.page || id !== state.target) state.detail = null
    state.page = next
    state.target = id
    say('')
    render()
  }

  // Live updates: server-sent events; each page reads its data again (the phone only when its calls change).
  let refresh
  function listen() {
    const source = new EventSource('/_admin/inspector/changes')
    const live = document.getElementById('live')
    // "Auto-updating", never "Live": LIVE is an environment here.
    source.onopen = () => {
      live.dataset.live = 'on'
      live.textContent = t('live')
      live.title = t('liveTitle')
    }
    source.onerror = () => {
      live.dataset.live = 'off'
      live.textContent = ''
    }
    source.addEventListener('change', () => {
      clearTimeout(refresh)
      refresh = setTimeout(async () => {
        if (state.page === 'settings') return
        if (state.page === 'phone') {
          const calls = (await api('GET', '/_admin/phone')).data.map((c) => c.payment_id).join(',')
          if (calls === ringing) return
        }
        // Not while someone types in a field of the page.
        if (document.activeElement && main.contains(document.activeElement) && /INPUT|SELECT|TEXTAREA/.test(document.activeElement.tagName)) return
        render()
      }, 100)
    })
    state.live = source
  }

  async function start(language) {
    try {
      const session = await api('GET', `/_admin/inspector/session${query({language})}`)
      Object.assign(state, {csrf: session.csrf, messages: session.messages, language: session.language, business: session.business_name})
    } catch (error) {
      state.messages = {}
    }
    document.getElementById('lang').value = state.language
    if (!state.live) listen()
    route()
  }

  document.getElementById('lang').addEventListener('change', (event) => {
    localStorage.setItem('svc-inspector-language', event.target.value)
    start(event.target.value)
  })
  window.addEventListener('hashchange', route)
  const chosen = localStorage.getItem('svc-inspector-language')
  start(chosen === 'en' || chosen === 'fr' ? chosen : navigator.language?.toLowerCase().startsWith('fr') ? 'fr' : 'en')
})()
