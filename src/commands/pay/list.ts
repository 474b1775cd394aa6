import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'
import {csvSepFlag} from '../../lib/io/csv-flags.js'

export default class PayList extends SvcCommand<typeof PayList> {
  static override summary = 'List payments, newest first.'
  static override description = 'With --json, prints an array of Payment objects (every page with --all).'
  static override examples = [
    '<%= config.bin %> pay list',
    '<%= config.bin %> pay list --status FAILED --limit 50',
    '<%= config.bin %> pay list --all --json',
    '<%= config.bin %> pay list --all --csv > payments.csv',
  ]
  static override flags = {
    status: Flags.option({options: ['PENDING', 'SUCCESS', 'FAILED', 'UNSPECIFIED'] as const, description: 'Only payments in this status.'})(),
    limit: Flags.integer({description: 'Payments per page (1–100).', default: 20, aliases: ['page-size']}),
    offset: Flags.integer({description: 'Skip this many payments.', min: 0, exclusive: ['page']}),
    page: Flags.integer({description: 'Page number, from 1 (pages of --limit payments), as invoice list takes it.', exclusive: ['offset']}),
    all: Flags.boolean({description: 'Follow every page.', exclusive: ['offset', 'page']}),
    csv: Flags.boolean({description: 'Print CSV (RFC 4180, a header row) instead of a table: for a spreadsheet.', exclusive: ['json']}),
    'csv-sep': csvSepFlag,
  }

  async run(): Promise<void> {
    const {payList} = await import('../../lib/payments/cli.js')
    await payList(this.ctx, this.flags)
  }
}
