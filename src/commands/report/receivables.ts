import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'
import {csvSepFlag} from '../../lib/io/csv-flags.js'

export default class ReportReceivables extends SvcCommand<typeof ReportReceivables> {
  static override summary = 'Open invoices by age and by customer: what is still due.'
  static override description = [
    'Reads every UNPAID and PAST_DUE invoice (partly paid ones included) and ages what is still due by its due date against --as-of (default today): not yet due (due today or later), 1–30, 31–60, 61–90 and over 90 days past due. The invoices are the ones open now; --as-of only changes how they are aged.',
    'Prints a bar chart and a table by customer; --json prints the figures (integers in XAF), --csv one row per customer and a totals row (row_type "total").',
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> report receivables',
    '<%= config.bin %> report receivables --as-of 2026-12-31',
    '<%= config.bin %> report receivables --csv > receivables.csv',
  ]
  static override flags = {
    'as-of': Flags.string({description: 'Age the invoices as of this day (YYYY-MM-DD); default today.'}),
    csv: Flags.boolean({description: 'Print CSV (a header row, RFC 4180) instead of tables.', exclusive: ['json']}),
    'csv-sep': csvSepFlag,
    'page-size': Flags.integer({description: 'Invoices per request while reading the list (1–100).', default: 100}),
  }

  async run(): Promise<void> {
    const {reportReceivables} = await import('../../lib/reports/cli.js')
    await reportReceivables(this.ctx, this.flags)
  }
}
