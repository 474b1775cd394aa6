import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'
import {ITEM_SPEC_HELP} from '../../lib/invoices/items.js'

export default class InvoiceCreate extends SvcCommand<typeof InvoiceCreate> {
  static override summary = 'Create an itemised invoice (a DRAFT until published).'
  static override description =
    'Checked locally before anything is sent: at least one item, whole XAF prices, whole quantities, discount 0–100 (a percentage, ' +
    'never francs), total after discount at least 100 XAF. The computed total is printed on stderr first.\n\n' +
    'An Idempotency-Key is always sent (a new UUID unless --idempotency-key is given; --verbose shows it) and reused on every ' +
    'retry, so a lost answer never makes a second invoice. Running the same command again with the same --idempotency-key ' +
    'returns the invoice already created.\n\n' +
    `--item: ${ITEM_SPEC_HELP} A name with a colon is written as is: --item "Cable 2:1 HDMI:1500:2" is "Cable 2:1 HDMI", 1 500 XAF, quantity 2.\n\n` +
    '--from-file takes the create body as JSON (customer_name, due_date, items [{name, description?, price, quantity}], ' +
    'discount_percent, customer_email, customer_phone, notes, currency, cover_image_url, external_reference); flags given ' +
    'with it replace its fields (--item replaces its items). "-" reads stdin.\n\n' +
    '--from INV_ID starts a new invoice from an existing one: its customer (name, email, phone), items, discount and notes; ' +
    'flags given with it replace those. The due date is not copied (give --due-date); the new invoice has its own Idempotency-Key.\n\n' +
    '--cover FILE uploads a PNG, JPEG or WebP image (at most 5 MB) first and uses its file_url. --cover URL must already be a ' +
    'file_url of the storage host: the base URL\'s own origin, or a host that `svc files upload` has received from the service ' +
    'for this base URL; any other host is refused locally.\n\n' +
    'On a terminal, missing --customer-name, --due-date or --item start a guided form (customer, items one by one with a running ' +
    'total, discount, due date, a summary to confirm, then publish and send?). Not on a terminal, the error names every missing flag. ' +
    '--dry-run checks everything and shows what would be sent, and sends nothing (exit 0).'
  static override examples = [
    '<%= config.bin %> invoice create --customer-name "Awa Bakery" --due-date 2026-12-31 --item "Bread:500:3" --item "Cake:2500:1"',
    '<%= config.bin %> invoice create --customer-name "Awa Bakery" --due-date 2026-12-31 --item "Bread:500:3" --discount 10 --email awa@example.com --publish --channel EMAIL',
    '<%= config.bin %> invoice create --from-file invoice.json --cover ./logo.png --json',
    '<%= config.bin %> invoice create --from inv_test_3k2 --due-date 2027-01-31',
  ]
  static override flags = {
    'customer-name': Flags.string({description: 'Customer name shown on the invoice.'}),
    'due-date': Flags.string({description: 'Due date: YYYY-MM-DD, or an ISO 8601 time with its offset.'}),
    item: Flags.string({char: 'i', description: 'A line item NAME:PRICE:QTY (repeatable); the last two fields are price and quantity.', multiple: true}),
    'from-file': Flags.string({char: 'f', description: 'The create body as a JSON file ("-": stdin).', exclusive: ['from']}),
    from: Flags.string({description: "Start from this invoice's customer, items, discount and notes (flags override; a new invoice, due when --due-date says).", exclusive: ['from-file']}),
    discount: Flags.string({description: 'Discount in percent, 0–100 (10 = 10 %, not 10 XAF).'}),
    email: Flags.string({description: "Customer's email (needed to send by EMAIL)."}),
    phone: Flags.string({description: "Customer's phone (needed to send by WHATSAPP)."}),
    notes: Flags.string({description: 'Notes shown on the invoice.'}),
    cover: Flags.string({description: 'Cover image: a local PNG/JPEG/WebP file (uploaded) or a file_url from `svc files upload`.'}),
    'external-reference': Flags.string({description: "Your own reference, echoed back on reads and shown on the PDF and checkout page. Without it, the invoice gets the profile's next number (FAC-2026-0001; svc config set invoice.prefix …)."}),
    'idempotency-key': Flags.string({description: 'Idempotency-Key to send (default: a new UUID).'}),
    publish: Flags.boolean({description: 'Publish it at once (DRAFT → UNPAID, payable).'}),
    channel: Flags.string({description: 'With --publish: deliver it by EMAIL or WHATSAPP.', options: ['EMAIL', 'WHATSAPP']}),
    'dry-run': Flags.boolean({description: 'Check everything and show the invoice, its totals and any delivery; send nothing.'}),
  }

  async run(): Promise<void> {
    const {invoiceCreate} = await import('../../lib/invoices/cli.js')
    await invoiceCreate(this.ctx, this.flags)
  }
}
