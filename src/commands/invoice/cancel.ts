import {Args} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class InvoiceCancel extends SvcCommand<typeof InvoiceCancel> {
  static override summary = 'Cancel an invoice (it can no longer be paid; history is kept).'
  static override description =
    'Cancelling a CANCELLED invoice changes nothing; a fully PAID one is refused (exit 5). On a LIVE key it asks for ' +
    'confirmation (refused without --yes when not interactive).'
  static override examples = ['<%= config.bin %> invoice cancel inv_test_123', '<%= config.bin %> invoice cancel inv_123 --yes --json']
  static override args = {id: Args.string({description: 'Invoice id.', required: true})}

  async run(): Promise<void> {
    const {invoiceCancel} = await import('../../lib/invoices/cli.js')
    await invoiceCancel(this.ctx, this.args.id)
  }
}
