import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'
import {csvSepFlag} from '../../lib/io/csv-flags.js'

export default class ReportCollections extends SvcCommand<typeof ReportCollections> {
  static override summary = 'Payments over a period: counts, amounts, success rate, failure codes.'
  static override description = [
    'Reads the payments created from --since (default 7 days ago) until --until (default now; a date includes that whole day) and counts them by status (SUCCESS, FAILED, PENDING, UNSPECIFIED), by day or by operator, with the success rate (SUCCESS among the payments with a final status), the failure codes ranked, and a sparkline of the amount collected per day.',
    'Amounts are gross, as the API returns them: fees are not an API field, so none are deducted. The Payment object has no operator field: --by operator infers it from the phone number (the test numbers, then the prefix); a number that says nothing is "other".',
  ].join('\n\n')
  static override examples = [
    '<%= config.bin %> report collections',
    '<%= config.bin %> report collections --since 30d --by operator',
    '<%= config.bin %> report collections --since 2026-05-01 --until 2026-05-31 --csv > may.csv',
  ]
  static override flags = {
    since: Flags.string({description: 'Start: a duration back from now (7d, 24h) or a date.', default: '7d'}),
    until: Flags.string({description: 'End: a duration back from now or a date (included); default now.'}),
    by: Flags.option({options: ['day', 'operator'] as const, description: 'Group by day or by (inferred) operator.', default: 'day' as const})(),
    csv: Flags.boolean({description: 'Print CSV (a header row, RFC 4180) instead of tables.', exclusive: ['json']}),
    'csv-sep': csvSepFlag,
    'page-size': Flags.integer({description: 'Payments per request while reading the list (1–100).', default: 100}),
  }

  async run(): Promise<void> {
    const {reportCollections} = await import('../../lib/reports/cli.js')
    await reportCollections(this.ctx, this.flags)
  }
}
