/**
 * `svc invoice create` on a terminal with required values missing: a guided form that asks only
 * for what the flags did not give (customer, then items one at a time with a running total,
 * discount, due date), shows a summary to confirm, then asks whether to publish and send.
 * Every answer is checked with the same rules as the flags, so the form cannot build an invoice
 * the flags would refuse. Not on a terminal, `missingFlags` names every missing flag at once.
 */
import {computeTotals} from '../../contract/totals.js'
import type {Context} from '../context.js'
import {ExitCode, InputError, SvcError} from '../errors.js'
import {getLocale, t, type MessageKey} from '../i18n/index.js'
import {serviceNow} from '../api/service-clock.js'
import {inQuestionTerms} from '../io/prompt.js'
import {formatXaf, parseWholeXaf} from '../payments/amount.js'
import {normalisePhone} from '../payments/phone.js'
import {formatDate, parseDueDate} from '../time/date.js'
import type {InvoiceDraft} from './draft.js'
import {parseDiscount} from './input.js'
import type {LineItem} from './items.js'
import type {Channel} from './types.js'

/** The required flags this draft still lacks, in the order the form asks for them. */
export function missingFlags(draft: Partial<InvoiceDraft>): string[] {
  const missing: string[] = []
  if (typeof draft.customer_name !== 'string' || draft.customer_name.trim() === '') missing.push('--customer-name')
  if (draft.due_date === undefined || draft.due_date === '') missing.push('--due-date')
  if (!Array.isArray(draft.items) || draft.items.length === 0) missing.push('--item')
  return missing
}

/**
 * A prompt validator from a parser that throws InputError: true, or its message in the terms of
 * the question: the parsers' messages name the flag (`--due-date`), which the person answering a
 * question never typed, so the flag becomes what was asked for ("Invalid due date …").
 */
function check(parse: (value: string) => unknown, subject: MessageKey): (value: string) => true | string {
  return (value) => {
    try {
      parse(value)
      return true
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      return inQuestionTerms(error, t(subject))
    }
  }
}

export interface GuidedResult {
  draft: InvoiceDraft
  publish: boolean
  channel?: Channel
}

export async function guidedDraft(ctx: Context, start: Partial<InvoiceDraft>, flags: {discountGiven: boolean; publish?: boolean}): Promise<GuidedResult> {
  const prompt = ctx.prompter()
  const locale = getLocale()
  const money = (n: number) => formatXaf(n, locale)
  const draft: Partial<InvoiceDraft> = {...start}
  ctx.io.err(t('invoice.form.intro'))

  if (typeof draft.customer_name !== 'string' || draft.customer_name.trim() === '') {
    draft.customer_name = (await prompt.input(t('invoice.form.customer'), {validate: (v) => (v.trim() !== '' ? true : t('invoice.form.required'))})).trim()
    if (draft.customer_email === undefined) {
      const email = (await prompt.input(t('invoice.form.email'), {validate: (v) => (v.trim() === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? true : t('invoice.form.emailInvalid'))})).trim()
      if (email !== '') draft.customer_email = email
    }
    if (draft.customer_phone === undefined) {
      const phone = (await prompt.input(t('invoice.form.phone'), {validate: (v) => (v.trim() === '' ? true : check((x) => normalisePhone(x, 'phone'), 'invoice.form.subject.phone')(v))})).trim()
      if (phone !== '') draft.customer_phone = phone
    }
  }

  if (!Array.isArray(draft.items) || draft.items.length === 0) {
    const items: LineItem[] = []
    for (;;) {
      const n = items.length + 1
      const name = (
        await prompt.input(t(items.length === 0 ? 'invoice.form.itemFirst' : 'invoice.form.itemNext', {n}), {
          validate: (v) => (v.trim() !== '' || items.length > 0 ? true : t('invoice.form.oneItem')),
        })
      ).trim()
      if (name === '') break
      const price = parseWholeXaf(await prompt.input(t('invoice.form.price', {name}), {validate: check((v) => parseWholeXaf(v, {min: 0, field: 'item'}), 'invoice.form.subject.price')}), {min: 0, field: 'item'})
      const quantity = parseWholeXaf(
        await prompt.input(t('invoice.form.quantity', {name}), {default: '1', validate: check((v) => parseWholeXaf(v, {min: 1, field: 'item', unit: false}), 'invoice.form.subject.quantity')}),
        {min: 1, field: 'item', unit: false},
      )
      items.push({name, price, quantity})
      const running = computeTotals(items, 0)
      ctx.io.err(t('invoice.form.running', {count: items.length, total: money(running.subtotal_amount)}))
    }
    draft.items = items
  }

  if (!flags.discountGiven) {
    draft.discount_percent = parseDiscount(await prompt.input(t('invoice.form.discount'), {default: '0', validate: check((v) => parseDiscount(v), 'invoice.form.subject.discount')}))
  }

  if (draft.due_date === undefined || draft.due_date === '') {
    // In the person's own form (31/12/2026 in French), 30j / 30d from the service's today too.
    const today = await serviceNow(await ctx.client())
    const suggestion = formatDate(parseDueDate('30d', 'due-date', {today}), locale)
    const read = (v: string) => parseDueDate(v, 'due-date', {today, locale})
    draft.due_date = read(await prompt.input(t('invoice.form.due'), {default: suggestion, validate: check(read, 'invoice.form.subject.due')}))
  }

  // The summary, then the one decision that matters.
  const totals = computeTotals(draft.items ?? [], draft.discount_percent ?? 0)
  ctx.io.err(t('invoice.form.summaryHeading'))
  ctx.io.err(t('invoice.form.summaryCustomer', {customer: draft.customer_name ?? '', contact: [draft.customer_email, draft.customer_phone].filter(Boolean).join(', ') || '—'}))
  for (const item of draft.items ?? []) ctx.io.err(t('invoice.form.summaryItem', {name: item.name, quantity: item.quantity, price: money(item.price), total: money(item.price * item.quantity)}))
  if (draft.discount_percent) ctx.io.err(t('invoice.form.summaryDiscount', {percent: draft.discount_percent, amount: money(totals.discount_amount)}))
  ctx.io.err(t('invoice.form.summaryTotal', {total: money(totals.total_amount), due: draft.due_date ? formatDate(draft.due_date, locale) : ''}))
  if (!(await prompt.confirm(t('invoice.form.confirm'), {default: true}))) {
    throw new SvcError(t('core.live.declined'), {exitCode: ExitCode.USAGE, code: 'cancelled'})
  }

  let publish = flags.publish === true
  let channel: Channel | undefined
  if (!publish) publish = await prompt.confirm(t('invoice.form.publish'), {default: false})
  if (publish && (draft.customer_email || draft.customer_phone)) {
    const choices: {value: 'NONE' | Channel; name: string}[] = [{value: 'NONE', name: t('invoice.form.sendNone')}]
    if (draft.customer_email) choices.push({value: 'EMAIL', name: t('invoice.form.sendEmail', {to: draft.customer_email})})
    if (draft.customer_phone) choices.push({value: 'WHATSAPP', name: t('invoice.form.sendWhatsapp', {to: draft.customer_phone})})
    const picked = await prompt.select(t('invoice.form.send'), choices)
    channel = picked === 'NONE' ? undefined : picked
  }
  return {draft: draft as InvoiceDraft, publish, channel}
}
