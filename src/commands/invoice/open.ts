import {Args, Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class InvoiceOpen extends SvcCommand<typeof InvoiceOpen> {
  static override summary = "Open the invoice's checkout page in the browser."
  static override description =
    'Opens checkout_url exactly as the service returned it (a sandbox URL keeps type=sandbox) with xdg-open, open or ' +
    'rundll32. Prints the address instead when not interactive, with --print, or when there is no opener.'
  static override examples = ['<%= config.bin %> invoice open inv_test_123', '<%= config.bin %> invoice open inv_test_123 --print']
  static override args = {id: Args.string({description: 'Invoice id.', required: true})}
  static override flags = {
    print: Flags.boolean({description: 'Print the address instead of opening it.'}),
  }

  async run(): Promise<void> {
    const {invoiceOpen} = await import('../../lib/invoices/cli.js')
    await invoiceOpen(this.ctx, this.args.id, this.flags)
  }
}
