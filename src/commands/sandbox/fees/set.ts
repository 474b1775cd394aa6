import {Flags} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxFeesSet extends SvcCommand<typeof SandboxFeesSet> {
  static override summary = "Set the business's charge tier (percentage or fixed fee) and who pays it."
  static override examples = ['<%= config.bin %> sandbox fees set --percent 2.5', '<%= config.bin %> sandbox fees set --fixed 100 --absorb']
  static override flags = {
    percent: Flags.string({description: 'Fee as a percentage of the amount (0–100, decimals allowed).'}),
    fixed: Flags.integer({description: 'Fixed fee in XAF.', min: 0}),
    absorb: Flags.boolean({description: 'The business absorbs the fee (--no-absorb: the customer pays it).', allowNo: true}),
  }

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.feesSet(this.ctx, this.flags)
  }
}
