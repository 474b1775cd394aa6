import {Args} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxNumbersRemove extends SvcCommand<typeof SandboxNumbersRemove> {
  static override summary = "Remove a number's script: its payments resolve randomly again (reproducible with --seed)."
  static override examples = ['<%= config.bin %> sandbox numbers remove 670112233']
  static override args = {number: Args.string({description: 'The scripted number.', required: true})}

  async run(): Promise<void> {
    const scenarios = await import('../../../lib/sandbox-admin/scenarios.js')
    await scenarios.numbersRemove(this.ctx, this.args.number)
  }
}
