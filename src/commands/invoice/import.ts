import {Args, Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class InvoiceImport extends SvcCommand<typeof InvoiceImport> {
  static override summary = 'Create many invoices from a CSV or JSON-lines file.'
  static override description =
    'Every row is checked first (as `invoice create` checks); if any is bad, all bad rows are listed with their line numbers ' +
    'and nothing is created (or pass --skip-invalid).\n\n' +
    'CSV: a header row, then one invoice per row. Columns (any order): customer_name, due_date, items (required); ' +
    'customer_email, customer_phone, discount_percent, notes, external_reference, cover_image_url, currency. items holds ' +
    'NAME:PRICE:QTY entries separated by ";" ("Bread:500:3; Cake:2500:1"); the last two fields of each are price and ' +
    'quantity, so a name may contain colons. Quoted fields, "" escapes, CRLF and a BOM are fine; fields may be separated by "," ";" or tab ' +
    '(found from the header), in UTF-8, UTF-16 (with a BOM) or Windows-1252 (said with a warning; --encoding to choose). Dates are read in the ' +
    "file's own order whatever language svc speaks: day first (21/01/2027) for a French-looking file and by default; --date-order to say. " +
    'A cell holds at most 65,536 characters and a row 1,048,576 (the file is read as a stream). Example: examples/invoices.csv.\n' +
    'JSON lines (.jsonl, or .json): one create body per line, as `invoice create --from-file` takes; a .json file may also be ' +
    'one array of bodies.\n\n' +
    'Each row has its own Idempotency-Key, derived from the row (its body, and which occurrence of that body it is), so ' +
    'running the same import again after a crash or Ctrl-C creates only the rows still missing, and fixing a bad row then ' +
    're-running creates only that row. A re-run skips, without a request, the rows its results file records as done (--recheck asks the service). Requests are paced to the rate limit (SVC_RATE_LIMIT or --rate, per minute; 429s are ' +
    'retried with the same key). A progress bar shows on a terminal; a summary goes to stderr; the results (row → invoice id ' +
    'and checkout_url, or the error, with its customer and reference) go to NAME.results.csv next to NAME.csv (FILE.results.csv for other names), ' +
    "written in the input's separator and encoding, or --results PATH (.csv, .json or .jsonl). If the service stops answering, the import stops (exit 7) " +
    'and says the command that resumes it.'
  static override examples = [
    '<%= config.bin %> invoice import examples/invoices.csv',
    '<%= config.bin %> invoice import invoices.jsonl --skip-invalid --results out.json',
    '<%= config.bin %> invoice import invoices.csv --publish --channel EMAIL --rate 60',
  ]
  static override args = {file: Args.string({description: 'The CSV (.csv) or JSON-lines (.jsonl, .json) file.', required: true})}
  static override flags = {
    'skip-invalid': Flags.boolean({description: 'Create the valid rows even if some are invalid (they are listed and skipped).'}),
    results: Flags.string({description: 'Results file (.csv, .json or .jsonl; default NAME.results.csv for NAME.csv).'}),
    publish: Flags.boolean({description: 'Publish each invoice after creating it.'}),
    channel: Flags.string({description: 'With --publish: deliver each by EMAIL or WHATSAPP.', options: ['EMAIL', 'WHATSAPP']}),
    'dry-run': Flags.boolean({description: 'Check every row and show what would be created; send nothing, write no results file.'}),
    rate: Flags.integer({description: 'Requests per minute to pace to (default SVC_RATE_LIMIT, else 100; 0 = no pacing).'}),
    concurrency: Flags.integer({description: 'Requests in flight at once (1–16).', default: 4}),
    'date-order': Flags.string({description: "How the file writes its dates: dmy (21/01/2027), mdy (01/21/2027) or ymd (2027/01/21). Default: day first, unless a file that does not look French shows month first. YYYY-MM-DD is read in every order."}),
    encoding: Flags.string({description: "The file's encoding: utf-8, utf-16le, utf-16be or windows-1252 (default: read from its BOM; UTF-8, else Windows-1252 with a warning)."}),
    recheck: Flags.boolean({description: 'Ask the service about every row, even those the results file records as done.'}),
  }

  protected override async onInterrupt(): Promise<void> {
    const {onImportInterrupt} = await import('../../lib/invoices/import-cli.js')
    await onImportInterrupt()
  }

  async run(): Promise<void> {
    const {invoiceImport} = await import('../../lib/invoices/import-cli.js')
    await invoiceImport(this.ctx, this.args.file, this.flags)
  }
}
