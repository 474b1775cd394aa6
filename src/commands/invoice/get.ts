import {Args} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class InvoiceGet extends SvcCommand<typeof InvoiceGet> {
  static override summary = 'Show one invoice.'
  static override description = 'With --json, prints the Invoice object as the service returned it.'
  static override examples = ['<%= config.bin %> invoice get inv_test_123', '<%= config.bin %> invoice get inv_test_123 --json']
  static override args = {id: Args.string({description: 'Invoice id.', required: true})}

  async run(): Promise<void> {
    const {invoiceGet} = await import('../../lib/invoices/cli.js')
    await invoiceGet(this.ctx, this.args.id)
  }
}
