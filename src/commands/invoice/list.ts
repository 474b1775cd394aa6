import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class InvoiceList extends SvcCommand<typeof InvoiceList> {
  static override summary = 'List invoices, newest first.'
  static override description = 'With --json, prints an array of Invoice objects (every page with --all).'
  static override examples = [
    '<%= config.bin %> invoice list',
    '<%= config.bin %> invoice list --status UNPAID --page-size 50',
    '<%= config.bin %> invoice list --all --json',
  ]
  static override flags = {
    status: Flags.option({options: ['DRAFT', 'UNPAID', 'PAST_DUE', 'PAID', 'CANCELLED'] as const, description: 'Only invoices in this status.'})(),
    page: Flags.integer({description: 'Page number, from 1.'}),
    'page-size': Flags.integer({description: 'Invoices per page (1–100).'}),
    all: Flags.boolean({description: 'Follow every page.', exclusive: ['page']}),
  }

  async run(): Promise<void> {
    const {invoiceList} = await import('../../lib/invoices/cli.js')
    await invoiceList(this.ctx, this.flags)
  }
}
