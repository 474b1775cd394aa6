import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'
import {csvSepFlag} from '../../lib/io/csv-flags.js'

export default class InvoiceList extends SvcCommand<typeof InvoiceList> {
  static override summary = 'List invoices, newest first.'
  static override description = `With --json, prints an array of Invoice objects (every page with --all).

--customer, --due-before, --due-after and --overdue are applied here, not by the service (its list filters by status only): the CLI reads the service's pages, 100 at a time, and keeps what matches, stopping once --page-size invoices (20 by default) have matched, or after every page with --all. "Today" for --overdue is the service's day (its Date header), so the sandbox's clock counts.`
  static override examples = [
    '<%= config.bin %> invoice list',
    '<%= config.bin %> invoice list --status UNPAID --page-size 50',
    '<%= config.bin %> invoice list --all --json',
    '<%= config.bin %> invoice list --all --csv > invoices.csv',
    '<%= config.bin %> invoice list --overdue --all',
    '<%= config.bin %> invoice list --customer awa --due-after 2026-11-30 --due-before 2027-01-01',
  ]
  static override flags = {
    status: Flags.option({options: ['DRAFT', 'UNPAID', 'PAST_DUE', 'PAID', 'CANCELLED'] as const, description: 'Only invoices in this status.'})(),
    page: Flags.integer({description: 'Page number, from 1.', exclusive: ['offset']}),
    offset: Flags.integer({description: 'Skip this many invoices (newest first), as pay list takes it.', min: 0, exclusive: ['page', 'all']}),
    'page-size': Flags.integer({description: 'Invoices per page (1–100).', aliases: ['limit']}),
    all: Flags.boolean({description: 'Follow every page.', exclusive: ['page']}),
    customer: Flags.string({description: 'Only invoices whose customer name, email, phone or reference (invoice number) contains this text, in any case and with or without accents (Emilie finds Émilie). Filtered by the CLI.', exclusive: ['page', 'offset']}),
    'due-before': Flags.string({description: 'Only invoices due before this day (YYYY-MM-DD; the day itself excluded). Filtered by the CLI.', exclusive: ['page', 'offset']}),
    'due-after': Flags.string({description: 'Only invoices due after this day (YYYY-MM-DD; the day itself excluded). Filtered by the CLI.', exclusive: ['page', 'offset']}),
    overdue: Flags.boolean({description: "Only unpaid invoices past their due date (the service's today). Filtered by the CLI.", exclusive: ['page', 'offset']}),
    csv: Flags.boolean({description: 'Print CSV (RFC 4180, a header row) instead of a table: for a spreadsheet.', exclusive: ['json']}),
    'csv-sep': csvSepFlag,
  }

  async run(): Promise<void> {
    const {invoiceList} = await import('../../lib/invoices/cli.js')
    await invoiceList(this.ctx, this.flags)
  }
}
