// The payments page: payments and invoices of one environment, its balance, fees and ledger, and
// one payment whole from its address.
import {api} from './admin.js'
import {field, h, isMissing, itemHref, link, missing, open, permalink, table, target, type Child} from './dom.js'
import {day, state, statusWord, t, when, xaf, type PageName} from './state.js'
import {rows, type InvoiceRow, type LedgerRow, type PaymentRow} from './views.js'

type Environment = 'SANDBOX' | 'LIVE'
export const filters = {
  payments: {environment: 'SANDBOX'} as {environment: Environment; status?: string},
  events: {environment: 'SANDBOX'} as {environment: Environment},
  outbox: {environment: 'SANDBOX'} as {environment: Environment},
}

/** The environment a page shows (SANDBOX or LIVE). */
export const envFilter = (name: keyof typeof filters, f: {environment: Environment}): HTMLElement =>
  field(
    t('filter.environment'),
    h(
      'select',
      {
        name: 'environment',
        onchange: (event) => ((filters[name] = {...filters[name], environment: (event.target as HTMLSelectElement).value as Environment}), state.render()),
      },
      (['SANDBOX', 'LIVE'] as const).map((e) => h('option', {value: e, selected: e === f.environment}, e)),
    ),
  )

/** One object whole, field by field (a payment's details), with its address. */
export function details(object: object & {id: string}, page: PageName): HTMLElement {
  return h(
    'section',
    {id: 'detail', class: 'detail', 'aria-label': object.id},
    h('dl', {class: 'facts'}, Object.entries(object).map(([k, v]) => [h('dt', {}, k), h('dd', {class: 'mono'}, typeof v === 'object' ? JSON.stringify(v) : String(v))]).flat()),
    h('div', {class: 'actions'}, h('button', {type: 'button', onclick: () => open(page)}, t('close')), permalink(page, object.id)),
  )
}

export async function paymentsPage(): Promise<Child[]> {
  const f = filters.payments
  const [payments, invoices, balance, fees, ledger] = await Promise.all([
    api('GET /_admin/payments', {query: {environment: f.environment, status: f.status, limit: 50}}),
    api('GET /_admin/invoices', {query: {environment: f.environment, limit: 50}}),
    api('GET /_admin/balance', {query: {environment: f.environment}}),
    api('GET /_admin/fees'),
    api('GET /_admin/ledger', {query: {environment: f.environment, limit: 20}}),
  ])
  const b: {balance?: number; fees_total?: number} = balance.data[0] ?? {}
  const detail = await target('GET /_admin/payments/{paymentId}', {params: {paymentId: state.target}})
  const statuses = [['', t('filter.statusAny')], ...['PENDING', 'SUCCESS', 'FAILED', 'UNSPECIFIED'].map((s) => [s, statusWord(s)])]
  return [
    h(
      'form',
      {class: 'filters', onsubmit: (event) => event.preventDefault()},
      envFilter('payments', f),
      field(
        t('col.status'),
        h(
          'select',
          {name: 'status', onchange: (event) => ((filters.payments = {...f, status: (event.target as HTMLSelectElement).value}), state.render())},
          statuses.map(([v, text]) => h('option', {value: v, selected: v === (f.status ?? '')}, text)),
        ),
      ),
    ),
    detail ? (isMissing(detail) ? missing(detail) : details(detail as PaymentRow, 'payments')) : null,
    h('h2', {}, t('payments.title'), ` (${payments.total})`),
    table(
      [t('col.id'), t('col.amount'), t('col.phone'), t('col.operator'), t('col.status'), t('col.created')],
      rows<PaymentRow>(payments).map((p) =>
        h(
          'tr',
          {},
          h('td', {class: 'mono'}, h('a', {href: itemHref('payments', p.id)}, p.id)),
          h('td', {class: 'num'}, xaf(p.amount)),
          h('td', {}, p.phone_number),
          h('td', {}, p.operator),
          h('td', {}, p.failure_code ? `${statusWord(p.status)} (${p.failure_code})` : statusWord(p.status)),
          h('td', {}, when(p.created_at)),
        ),
      ),
      t('payments.title'),
    ),
    h('h2', {}, t('invoices.title'), ` (${invoices.total})`),
    table(
      [t('col.id'), t('col.customer'), t('col.amount'), t('col.status'), t('col.due'), ''],
      rows<InvoiceRow>(invoices).map((i) =>
        h(
          'tr',
          {},
          h('td', {class: 'mono'}, i.id),
          h('td', {}, i.customer_name),
          h('td', {class: 'num'}, xaf(i.total_amount)),
          h('td', {}, statusWord(i.status)),
          h('td', {}, day(i.due_date)),
          h('td', {class: 'links'}, i.pdf_url ? link(i.pdf_url, t('invoice.pdf')) : null, ' ', link(i.checkout_url, t('invoice.checkout'))),
        ),
      ),
      t('invoices.title'),
    ),
    h('h2', {}, t('balance.title')),
    h(
      'dl',
      {class: 'facts'},
      h('dt', {}, t('balance.available')),
      h('dd', {}, xaf(b.balance ?? 0)),
      h('dt', {}, t('balance.fees')),
      h('dd', {}, `${fees.mode === 'percent' ? `${fees.value} %` : xaf(fees.value)} · ${xaf(b.fees_total ?? 0)}`),
    ),
    h('h2', {}, t('ledger.title')),
    table(
      [t('col.created'), t('col.type'), t('col.amount'), t('col.id')],
      rows<LedgerRow>(ledger).map((e) =>
        h('tr', {}, h('td', {}, when(e.created_at)), h('td', {}, e.type), h('td', {class: 'num'}, `${xaf(e.net_amount)} (${xaf(e.fee)})`), h('td', {class: 'mono'}, e.payment_id)),
      ),
      t('ledger.title'),
    ),
  ]
}
