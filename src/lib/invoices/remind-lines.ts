/**
 * `invoice remind`'s per-invoice lines: one per invoice, on stdout, in a dry run and a real run
 * alike, in columns (what happened, the invoice, its customer, the details), so that the two runs
 * read the same. The widths come from the whole plan, known before the first send: a line written
 * as its send ends (a log, a pipe) lines up with the ones written after.
 */
import {getLocale, t} from '../i18n/index.js'
import type {IO} from '../io/terminal.js'
import {displayWidth} from '../io/table.js'
import {formatXaf} from '../payments/amount.js'
import {formatDate} from '../time/date.js'
import type {Channel} from './types.js'

export type RemindOutcome = 'wouldSend' | 'sent' | 'skipped' | 'unknown' | 'elsewhere' | 'failed'

const WORDS: Record<RemindOutcome, () => string> = {
  wouldSend: () => t('invoice.remind.word.wouldSend'),
  sent: () => t('invoice.remind.word.sent'),
  skipped: () => t('invoice.remind.word.skipped'),
  unknown: () => t('invoice.remind.word.unknown'),
  elsewhere: () => t('invoice.remind.word.elsewhere'),
  failed: () => t('invoice.remind.word.failed'),
}

/** A customer's name longer than this is not padded to (one long name would push every line). */
const MAX_NAME = 48

export type RemindDetail =
  | {outcome: 'wouldSend'; amount: number; due: string; channel: Channel; recipient: string}
  | {outcome: 'sent'; channel: Channel; recipient: string}
  | {outcome: 'skipped'}
  | {outcome: 'unknown'}
  | {outcome: 'elsewhere'; pid: number}
  | {outcome: 'failed'; error: string}

function detailText(detail: RemindDetail, id: string): string {
  const locale = getLocale()
  switch (detail.outcome) {
    case 'wouldSend':
      return t('invoice.remind.detail.wouldSend', {amount: formatXaf(detail.amount, locale), due: formatDate(detail.due.slice(0, 10), locale), channel: detail.channel, recipient: detail.recipient})
    case 'sent':
      return t('invoice.remind.detail.sent', {channel: detail.channel, recipient: detail.recipient})
    case 'skipped':
      return t('invoice.remind.detail.skipped')
    case 'unknown':
      return t('invoice.remind.detail.unknown', {id})
    case 'elsewhere':
      return t('invoice.remind.detail.elsewhere', {pid: detail.pid})
    case 'failed':
      return detail.error
  }
}

export class RemindLines {
  private readonly wordWidth: number
  private readonly idWidth: number
  private readonly nameWidth: number
  private readonly written = new Set<string>()

  constructor(
    private readonly io: IO,
    invoices: Array<{id: string; customer: string}>,
  ) {
    this.wordWidth = Math.max(...Object.values(WORDS).map((word) => displayWidth(word())))
    this.idWidth = Math.max(0, ...invoices.map((i) => i.id.length))
    this.nameWidth = Math.min(MAX_NAME, Math.max(0, ...invoices.map((i) => displayWidth(i.customer))))
  }

  /** The line of one invoice, on stdout (none with --json, whose document says it all); once per invoice and outcome. */
  write(id: string, customer: string, detail: RemindDetail): void {
    const key = `${detail.outcome} ${id}`
    if (this.io.json || this.written.has(key)) return
    this.written.add(key)
    const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - displayWidth(text)))
    this.io.out(`${pad(WORDS[detail.outcome](), this.wordWidth)}  ${pad(id, this.idWidth)}  ${pad(customer, this.nameWidth)}  ${detailText(detail, id)}`)
  }
}
