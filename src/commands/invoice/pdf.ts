import {Args, Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class InvoicePdf extends SvcCommand<typeof InvoicePdf> {
  static override summary = 'Download the invoice rendered as a PDF.'
  static override description =
    'Saved to INVOICE_ID.pdf unless --output says otherwise ("-": stdout). The document is checked to be a PDF before ' +
    'anything is written. A DRAFT has no PDF (exit 5): publish it first. With --json (and a file), prints where it went.'
  static override examples = [
    '<%= config.bin %> invoice pdf inv_test_123',
    '<%= config.bin %> invoice pdf inv_test_123 -o invoice.pdf',
    '<%= config.bin %> invoice pdf inv_test_123 -o - | pdftotext - -',
  ]
  static override args = {id: Args.string({description: 'Invoice id.', required: true})}
  static override flags = {
    output: Flags.string({char: 'o', description: 'Where to write it: a file, or - for stdout (default INVOICE_ID.pdf).'}),
  }

  async run(): Promise<void> {
    const {invoicePdf} = await import('../../lib/invoices/cli.js')
    await invoicePdf(this.ctx, this.args.id, this.flags)
  }
}
