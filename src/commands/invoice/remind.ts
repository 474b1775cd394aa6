import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class InvoiceRemind extends SvcCommand<typeof InvoiceRemind> {
  static override summary = 'Send each unpaid invoice its pay link again, at most once a day per invoice.'
  static override description = `Finds the unpaid invoices (UNPAID or PAST_DUE) that match the filters and asks the service to send each one again (its send operation), one at a time, paced to the rate limit.

At most one reminder per invoice per day (the service's day): a journal per profile in the config directory records each send before it goes out and marks it once the service confirms it, so running the command again the same day, or after a crash or Ctrl-C, sends nothing twice. A send that was started but never confirmed is reported as unknown and not repeated that day.

Filters (--customer, --overdue, --due-within) are applied by the CLI over the service's pages. The channel is --channel, else EMAIL when the invoice has an email address, else WHATSAPP. With a LIVE key, asks for confirmation showing how many customers will be contacted. --dry-run shows what would be sent and sends nothing. With --json, prints {dry_run, day, sent, skipped, unknown, failed}.`
  static override examples = [
    '<%= config.bin %> invoice remind --overdue --dry-run',
    '<%= config.bin %> invoice remind --overdue',
    '<%= config.bin %> invoice remind --due-within 3d --channel WHATSAPP',
    '<%= config.bin %> invoice remind --customer "Awa Bakery"',
  ]
  static override flags = {
    overdue: Flags.boolean({description: "Only invoices past their due date (the service's today).", exclusive: ['due-within']}),
    'due-within': Flags.string({description: 'Only invoices falling due from today to this many days ahead (e.g. 3d).', exclusive: ['overdue']}),
    customer: Flags.string({description: 'Only invoices whose customer name, email, phone or reference (invoice number) contains this text, in any case and with or without accents.'}),
    channel: Flags.string({description: 'EMAIL or WHATSAPP (default: EMAIL when the invoice has an email address, else WHATSAPP).'}),
    'dry-run': Flags.boolean({description: 'Check and show what would be sent; send nothing.'}),
  }

  async run(): Promise<void> {
    const {invoiceRemind} = await import('../../lib/invoices/remind.js')
    await invoiceRemind(this.ctx, this.flags)
  }
}
