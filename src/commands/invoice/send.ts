import {Args, Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class InvoiceSend extends SvcCommand<typeof InvoiceSend> {
  static override summary = 'Send a published invoice to the customer with its pay link.'
  static override description =
    "Default recipients: the invoice's customer_email (EMAIL, the default channel) or customer_phone (WHATSAPP). Needs the " +
    'invoices:send scope. Never retried automatically (it would deliver twice). On a LIVE key it asks for confirmation ' +
    '(refused without --yes when not interactive).'
  static override examples = [
    '<%= config.bin %> invoice send inv_test_123',
    '<%= config.bin %> invoice send inv_test_123 --channel WHATSAPP',
    '<%= config.bin %> invoice send inv_test_123 --to-email accounts@example.com --json',
  ]
  static override args = {id: Args.string({description: 'Invoice id.', required: true})}
  static override flags = {
    channel: Flags.string({description: 'EMAIL (default) or WHATSAPP.', options: ['EMAIL', 'WHATSAPP']}),
    'to-email': Flags.string({description: 'Send this once to this address (the invoice is unchanged).'}),
    'to-phone': Flags.string({description: 'Send this once to this number (the invoice is unchanged).'}),
  }

  async run(): Promise<void> {
    const {invoiceSend} = await import('../../lib/invoices/cli.js')
    await invoiceSend(this.ctx, this.args.id, this.flags)
  }
}
