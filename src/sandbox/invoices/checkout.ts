/**
 * The hosted checkout on the pay host (`${url}/pay`): `GET /pay/i/{invoiceId}` shows the invoice
 * and a form (number, operator, amount) that starts a real payment of the payments domain, linked
 * to the invoice; the page then follows the payment (a little inline script polling
 * `/pay/i/{id}/payments/{paymentId}`, or a meta refresh without script) and shows the outcome.
 *
 * - A sandbox invoice is found only with `?type=sandbox` (kept on every link and form), a live one
 *   only without it: otherwise 404, as on the real pay host.
 * - A DRAFT is 404 (invisible to the customer); PAID and CANCELLED say so and offer no form.
 * - Mobile first, accessible (lang, labels, live region, contrast), no external assets: inline CSS
 *   and script only, enforced by the Content-Security-Policy header.
 * - In the customer's language: `?lang=en|fr` (the switch at the top of the page, kept on its form
 *   and redirects), else the browser's `Accept-Language`, else the business's language (dashboard
 *   setting). Each request is rendered in its own language (t(key, params, locale), never the
 *   process's locale: one server serves both at once).
 */
import {type Locale, type MessageKey, type Params} from '../i18n/index.js'
import {t} from '../i18n/index.js'
import {OPERATORS, type Operator} from '../../contract/test-numbers.js'
import {businessLanguage, businessLogo, businessName, fromAcceptLanguage, LANGUAGES} from '../business.js'
import type {SandboxContext} from '../context.js'
import {ApiError} from '../errors.js'
import {idEnvironment} from '../ids.js'
import type {FailureCode, Payments} from '../payments.js'
import {normalisePhone} from '../../contract/phone.js'
import type {HandlerResult, RequestContext} from '../router.js'
import type {Environment} from '../types.js'
import {formatDay, formatXaf as formatAmount} from './format.js'
import type {Invoices} from './invoices.js'
import type {Invoice} from './schemas.js'

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
const HTML = 'text/html; charset=utf-8'
/** How often the page asks for the payment's status, ms. */
export const POLL_MS = 1000

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[c]!)
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f3f4f6}
main{max-width:32rem;margin:0 auto;padding:1rem}
.card{background:#fff;border-radius:.75rem;padding:1.25rem;margin-bottom:1rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.35rem;margin:0 0 .25rem}
h2{font-size:1.1rem;margin:0 0 .75rem}
.muted{color:#4b5563}
.sandbox{display:inline-block;background:#fde68a;color:#1a1a1a;border-radius:.25rem;padding:0 .4rem;font-size:.85rem;font-weight:600}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:.35rem 0;vertical-align:top}
td.num,th.num{text-align:right;white-space:nowrap}
tfoot th,tfoot td{border-top:1px solid #d1d5db}
.due{font-size:1.25rem;font-weight:700}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input,select{width:100%;font:inherit;padding:.65rem;border:1px solid #6b7280;border-radius:.5rem;background:#fff;color:#1a1a1a}
button{width:100%;margin-top:1rem;font:inherit;font-weight:700;padding:.8rem;border:0;border-radius:.5rem;background:#0b57a4;color:#fff;cursor:pointer}
button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.status{border-radius:.5rem;padding:.75rem 1rem;margin-bottom:1rem;font-weight:600}
.ok{background:#dcfce7;color:#14532d}
.bad{background:#fee2e2;color:#7f1d1d}
.wait{background:#dbeafe;color:#1e3a8a}
.hint{font-size:.9rem;color:#4b5563}
.lang{text-align:right;font-size:.9rem;margin-bottom:.5rem}
.lang a{color:#0b57a4;padding:.25rem}
.lang a[aria-current]{color:#1a1a1a;font-weight:700;text-decoration:none}
`

/** The catalogue in one language (the page's, never the process's). */
function translator(locale: Locale): (key: MessageKey, params?: Params) => string {
  return (key, params) => t(key, params, locale)
}

/** Each language's name in itself (never translated). */
const LANGUAGE_NAMES: Record<Locale, string> = {en: 'English', fr: 'Français'}

/** The language of one request: what it shows, and whether the customer chose it (`?lang=`). */
interface View {
  locale: Locale
  chosen?: Locale
}

interface PageOptions {
  locale: Locale
  title: string
  body: string
  refresh?: boolean
  script?: string
}

function page({locale, title, body, refresh, script}: PageOptions): string {
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
${refresh ? `<noscript><meta http-equiv="refresh" content="2"></noscript>` : ''}
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
${script ? `<script>${script}</script>` : ''}
</body>
</html>
`
}

export class Checkout {
  constructor(private readonly ctx: SandboxContext, private readonly invoices: Invoices, private readonly payments: Payments) {
    this.routes()
  }

  private html(status: number, text: string, view: View, extra: Record<string, string> = {}): HandlerResult {
    return {
      status,
      raw: text,
      contentType: HTML,
      headers: {'content-security-policy': CSP, 'cache-control': 'no-store', 'content-language': view.locale, vary: 'Accept-Language', ...extra},
    }
  }

  /** `?lang=` when the customer chose, else `Accept-Language`, else the business's language. */
  private view(req: RequestContext): View {
    const asked = req.query.lang
    if (typeof asked === 'string' && (LANGUAGES as readonly string[]).includes(asked)) return {locale: asked as Locale, chosen: asked as Locale}
    const fallback = businessLanguage(this.ctx.store)
    const header = req.headers['accept-language']
    return {locale: fromAcceptLanguage(Array.isArray(header) ? header.join(',') : header, fallback) ?? fallback}
  }

  private notFoundPage(view: View): HandlerResult {
    const {locale} = view
    return this.html(
      404,
      page({
        locale,
        title: t('sandboxInvoices.checkout.notFoundTitle', undefined, locale),
        body: `<div class="card"><h1>${escape(t('sandboxInvoices.checkout.notFoundTitle', undefined, locale))}</h1><p>${escape(t('sandboxInvoices.checkout.notFoundText', undefined, locale))}</p></div>`,
      }),
      view,
    )
  }

  /** The language switch: this page in each language (keeping type=sandbox and the payment followed). */
  private switcher(invoice: Invoice, view: View, paymentId: string | undefined): string {
    const links = LANGUAGES.map((lang) => {
      const href = `/pay/i/${escape(invoice.id)}${this.suffix(invoice, paymentId ? `payment=${encodeURIComponent(paymentId)}` : '', {locale: lang, chosen: lang})}`
      const current = lang === view.locale ? ' aria-current="true"' : ''
      return `<a href="${escape(href)}" hreflang="${lang}" lang="${lang}" id="lang-${lang}"${current}>${LANGUAGE_NAMES[lang]}</a>`
    })
    return `<nav class="lang" aria-label="Language / Langue">${links.join(' · ')}</nav>`
  }

  /** The invoice a customer may see at this address, or undefined (404). */
  private visible(id: string, type: unknown): Invoice | undefined {
    const environment: Environment = type === 'sandbox' ? 'SANDBOX' : 'LIVE'
    if (idEnvironment('inv', id) !== environment) return undefined
    const invoice = this.invoices.find(environment, id)
    return invoice && invoice.status !== 'DRAFT' ? invoice : undefined
  }

  private suffix(invoice: Invoice, extra = '', view?: View): string {
    const parts = [invoice.environment === 'SANDBOX' ? 'type=sandbox' : '', extra, view?.chosen ? `lang=${view.chosen}` : ''].filter(Boolean)
    return parts.length > 0 ? `?${parts.join('&')}` : ''
  }

  private summary(invoice: Invoice, locale: Locale): string {
    const t = translator(locale)
    const formatXaf = (amount: number) => formatAmount(amount, locale)
    const rows = invoice.items
      .map(
        (item) =>
          `<tr><td>${escape(item.name)}${item.description ? `<br><span class="hint">${escape(item.description)}</span>` : ''}</td><td class="num">${item.quantity} × ${escape(formatXaf(item.price))}</td><td class="num">${escape(formatXaf(item.price * item.quantity))}</td></tr>`,
      )
      .join('')
    const discount =
      invoice.discount_percent > 0
        ? `<tr><th colspan="2">${escape(t('sandboxInvoices.checkout.discount', {percent: invoice.discount_percent}))}</th><td class="num">-${escape(formatXaf(invoice.discount_amount))}</td></tr>`
        : ''
    const paid =
      invoice.amount_paid > 0
        ? `<tr><th colspan="2">${escape(t('sandboxInvoices.checkout.amountPaid'))}</th><td class="num">${escape(formatXaf(invoice.amount_paid))}</td></tr>`
        : ''
    const cover = invoice.cover_image_url ? `<img src="${escape(invoice.cover_image_url)}" alt="" style="max-width:100%;border-radius:.5rem;margin-bottom:.75rem">` : ''
    return `<div class="card">${cover}
${businessLogo(this.ctx.store) ? `<img class="logo" src="/storage/business/logo" alt="" style="max-height:3rem;max-width:8rem;display:block;margin-bottom:.5rem">` : ''}<p class="muted">${escape(businessName(this.ctx.store, this.ctx.options.businessName))}${invoice.environment === 'SANDBOX' ? ` <span class="sandbox">${escape(t('sandboxInvoices.checkout.sandboxBadge'))}</span>` : ''}</p>
<h1>${escape(t('sandboxInvoices.checkout.heading', {customer: invoice.customer_name}))}</h1>
<p class="muted" id="invoice-number">${escape(t('sandboxInvoices.checkout.reference', {id: invoice.external_reference || invoice.id}))} · ${escape(t('sandboxInvoices.checkout.dueDate', {due: formatDay(invoice.due_date, locale)}))}</p>
<table aria-label="${escape(t('sandboxInvoices.checkout.itemsLabel'))}">
<thead><tr><th scope="col">${escape(t('sandboxInvoices.pdf.item'))}</th><th scope="col" class="num">${escape(t('sandboxInvoices.pdf.quantity'))}</th><th scope="col" class="num">${escape(t('sandboxInvoices.pdf.lineTotal'))}</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot>
<tr><th colspan="2">${escape(t('sandboxInvoices.pdf.subtotal'))}</th><td class="num">${escape(formatXaf(invoice.subtotal_amount))}</td></tr>
${discount}
<tr><th colspan="2">${escape(t('sandboxInvoices.pdf.total'))}</th><td class="num">${escape(formatXaf(invoice.total_amount))}</td></tr>
${paid}
<tr><th colspan="2">${escape(t('sandboxInvoices.checkout.amountDue'))}</th><td class="num due" id="amount-due">${escape(formatXaf(invoice.amount_due))}</td></tr>
</tfoot>
</table>
${invoice.notes ? `<p>${escape(invoice.notes)}</p>` : ''}
</div>`
  }

  private form(invoice: Invoice, view: View, values: {phone?: string; operator?: string; amount?: string}, error?: string): string {
    const t = translator(view.locale)
    const options = OPERATORS.map((op) => `<option value="${op}"${values.operator === op ? ' selected' : ''}>${op === 'MTN' ? 'MTN Mobile Money' : 'Orange Money'}</option>`).join('')
    const errorBlock = error ? `<div class="status bad" role="alert" id="form-error">${escape(error)}</div>` : ''
    return `<div class="card">
<h2>${escape(t('sandboxInvoices.checkout.payHeading'))}</h2>
${errorBlock}
<form method="post" action="/pay/i/${escape(invoice.id)}/pay${escape(this.suffix(invoice, '', view))}">
<label for="operator">${escape(t('sandboxInvoices.checkout.operatorLabel'))}</label>
<select id="operator" name="operator" required>${options}</select>
<label for="phone">${escape(t('sandboxInvoices.checkout.phoneLabel'))}</label>
<input id="phone" name="phone" type="tel" inputmode="tel" autocomplete="tel" required placeholder="670000001" value="${escape(values.phone ?? '')}" aria-describedby="phone-hint"${error ? ' aria-invalid="true"' : ''}>
<p class="hint" id="phone-hint">${escape(t(invoice.environment === 'SANDBOX' ? 'sandboxInvoices.checkout.phoneHintSandbox' : 'sandboxInvoices.checkout.phoneHint'))}</p>
<label for="amount">${escape(t('sandboxInvoices.checkout.amountLabel'))}</label>
<input id="amount" name="amount" type="number" inputmode="numeric" min="1" max="${invoice.amount_due}" step="1" required value="${escape(values.amount ?? String(invoice.amount_due))}">
<button type="submit">${escape(t('sandboxInvoices.checkout.payButton'))}</button>
</form>
</div>`
  }

  private failureText(code: FailureCode | undefined, locale: Locale): string {
    const key = `sandboxInvoices.checkout.failure.${code ?? 'PROVIDER_ERROR'}` as MessageKey
    return t(key, undefined, locale)
  }

  /** The page for an invoice, with the outcome of `paymentId` when the customer has just paid. */
  private render(invoice: Invoice, view: View, paymentId: string | undefined, form: {values?: Record<string, string>; error?: string} = {}): {text: string} {
    const {locale} = view
    const t = translator(locale)
    const formatXaf = (amount: number) => formatAmount(amount, locale)
    const title = t('sandboxInvoices.checkout.title', {business: businessName(this.ctx.store, this.ctx.options.businessName), id: invoice.external_reference || invoice.id})
    const link = paymentId ? this.invoices.links(invoice.environment).get(paymentId) : undefined
    const payment = link && link.invoice_id === invoice.id ? this.payments.get(invoice.environment, link.id)?.payment : undefined
    let status = ''
    let script: string | undefined
    let refresh = false
    if (payment && (payment.status === 'PENDING' || payment.status === 'UNSPECIFIED')) {
      status = `<div class="status wait" role="status" aria-live="polite" id="payment-status">${escape(t('sandboxInvoices.checkout.waiting', {amount: formatXaf(payment.amount), phone: payment.phone_number}))}</div>`
      refresh = true
      const poll = `/pay/i/${invoice.id}/payments/${payment.id}${this.suffix(invoice)}`
      script = `(function(){var u=${JSON.stringify(poll)};function tick(){fetch(u,{cache:'no-store'}).then(function(r){return r.json()}).then(function(p){if(p.status==='SUCCESS'||p.status==='FAILED'){location.reload()}else{setTimeout(tick,${POLL_MS})}}).catch(function(){setTimeout(tick,${POLL_MS * 2})})}setTimeout(tick,${POLL_MS})})()`
    } else if (payment?.status === 'SUCCESS') {
      status = `<div class="status ok" role="status" aria-live="polite" id="payment-status">${escape(t('sandboxInvoices.checkout.succeeded', {amount: formatXaf(payment.amount)}))}</div>`
    } else if (payment?.status === 'FAILED') {
      status = `<div class="status bad" role="alert" id="payment-status">${escape(t('sandboxInvoices.checkout.failed', {reason: this.failureText(payment.failure_code, locale)}))}</div>`
    }
    let closing: string
    if (invoice.status === 'PAID') {
      closing = `<div class="status ok" role="status" id="invoice-status">${escape(t('sandboxInvoices.checkout.paid', {date: formatDay(invoice.paid_at, locale)}))}</div>`
    } else if (invoice.status === 'CANCELLED') {
      closing = `<div class="status bad" role="status" id="invoice-status">${escape(t('sandboxInvoices.checkout.cancelled'))}</div>`
    } else if (refresh) {
      closing = ''
    } else {
      const pastDue = invoice.status === 'PAST_DUE' ? `<div class="status bad" id="invoice-status">${escape(t('sandboxInvoices.checkout.pastDue', {due: formatDay(invoice.due_date, locale)}))}</div>` : ''
      closing = pastDue + this.form(invoice, view, form.values ?? {}, form.error)
    }
    const body = `${this.switcher(invoice, view, payment?.id)}${status}${this.summary(invoice, locale)}${closing}`
    return {text: page({locale, title, refresh, script, body})}
  }

  private routes(): void {
    const {router} = this.ctx
    const query = {type: 'object' as const, properties: {type: {type: 'string' as const}, payment: {type: 'string' as const}, lang: {type: 'string' as const}}}

    router.add({
      method: 'GET',
      path: '/pay/i/{invoiceId}',
      auth: 'none',
      query,
      responses: {200: {description: 'The checkout page.', contentType: HTML}},
      handler: (req) => {
        const view = this.view(req)
        const invoice = this.visible(req.params.invoiceId, req.query.type)
        if (!invoice) return this.notFoundPage(view)
        return this.html(200, this.render(invoice, view, req.query.payment).text, view)
      },
    })

    router.add({
      method: 'POST',
      path: '/pay/i/{invoiceId}/pay',
      auth: 'none',
      query,
      body: 'raw',
      maxBodyBytes: 16 * 1024,
      limitByAddress: true,
      responses: {303: {description: 'To the page following the payment.'}},
      handler: (req) => {
        const view = this.view(req)
        const invoice = this.visible(req.params.invoiceId, req.query.type)
        if (!invoice) return this.notFoundPage(view)
        const form = Object.fromEntries(new URLSearchParams((req.body as Buffer).toString('utf8')))
        const values = {phone: form.phone ?? '', operator: form.operator ?? '', amount: form.amount ?? ''}
        const again = (status: number, error: string) => this.html(status, this.render(invoice, view, undefined, {values, error}).text, view)
        const phone = normalisePhone(values.phone)
        if (!phone) return again(400, t('sandboxInvoices.checkout.badPhone', undefined, view.locale))
        if (!OPERATORS.includes(values.operator as Operator)) return again(400, t('sandboxInvoices.checkout.badOperator', undefined, view.locale))
        const amount = /^\s*\d+\s*$/.test(values.amount) ? Number(values.amount) : Number.NaN
        try {
          const payment = this.invoices.startPayment(invoice.environment, invoice.id, {amount, phone_number: phone, operator: values.operator as Operator}, view.locale)
          const location = `/pay/i/${invoice.id}${this.suffix(invoice, `payment=${payment.id}`, view)}`
          return {status: 303, raw: '', contentType: HTML, headers: {location}}
        } catch (error) {
          if (error instanceof ApiError && error.status < 500) return again(error.status === 409 ? 409 : 400, error.errors?.[0]?.message ?? error.message)
          throw error
        }
      },
    })

    router.add({
      method: 'GET',
      path: '/pay/i/{invoiceId}/payments/{paymentId}',
      auth: 'none',
      query,
      responses: {200: {description: 'The payment as the page follows it.'}},
      handler: (req) => {
        const invoice = this.visible(req.params.invoiceId, req.query.type)
        const link = invoice && this.invoices.links(invoice.environment).get(req.params.paymentId)
        const payment = invoice && link?.invoice_id === invoice.id ? this.payments.get(invoice.environment, link.id)?.payment : undefined
        if (!invoice || !payment) throw new ApiError(404, 'not_found', t('sandbox.error.notFound', {what: 'payment', id: req.params.paymentId}))
        return {
          status: 200,
          body: {
            payment_id: payment.id,
            status: payment.status,
            ...(payment.failure_code ? {failure_code: payment.failure_code} : {}),
            invoice_status: invoice.status,
            amount_paid: invoice.amount_paid,
            amount_due: invoice.amount_due,
          },
          headers: {'cache-control': 'no-store'},
        }
      },
    })
  }
}
