import {Args, Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class InvoicePublish extends SvcCommand<typeof InvoicePublish> {
  static override summary = 'Publish a DRAFT invoice: it becomes UNPAID and payable.'
  static override description =
    'Without --channel it publishes quietly (deliver later with `svc invoice send`). With --channel it is delivered in the same ' +
    'call; on a LIVE key that asks for confirmation (refused without --yes when not interactive). Publishing an UNPAID invoice ' +
    'again changes nothing and delivers nothing.'
  static override examples = [
    '<%= config.bin %> invoice publish inv_test_123',
    '<%= config.bin %> invoice publish inv_test_123 --channel WHATSAPP --to-phone 670000001',
  ]
  static override args = {id: Args.string({description: 'Invoice id.', required: true})}
  static override flags = {
    channel: Flags.string({description: 'Deliver it by EMAIL or WHATSAPP.', options: ['EMAIL', 'WHATSAPP']}),
    'to-email': Flags.string({description: 'Deliver this once to this address (the invoice is unchanged).'}),
    'to-phone': Flags.string({description: 'Deliver this once to this number (the invoice is unchanged).'}),
  }

  async run(): Promise<void> {
    const {invoicePublish} = await import('../../lib/invoices/cli.js')
    await invoicePublish(this.ctx, this.args.id, this.flags)
  }
}
