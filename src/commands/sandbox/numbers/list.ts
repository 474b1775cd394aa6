import {SvcCommand} from '../../../lib/command.js'

export default class SandboxNumbersList extends SvcCommand<typeof SandboxNumbersList> {
  static override summary = "The running sandbox's numbers: the spec's fixed test numbers and the scripted ones, marked."
  static override examples = ['<%= config.bin %> sandbox numbers list', '<%= config.bin %> sandbox numbers list --json']

  async run(): Promise<void> {
    const scenarios = await import('../../../lib/sandbox-admin/scenarios.js')
    await scenarios.numbersList(this.ctx)
  }
}
