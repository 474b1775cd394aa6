import {SvcCommand} from '../../../lib/command.js'

export default class SandboxFaultsList extends SvcCommand<typeof SandboxFaultsList> {
  static override summary = 'The faults set in the sandbox, and how often each was injected.'
  static override examples = ['<%= config.bin %> sandbox faults list', '<%= config.bin %> sandbox faults list --json']

  async run(): Promise<void> {
    const scenarios = await import('../../../lib/sandbox-admin/scenarios.js')
    await scenarios.faultsList(this.ctx)
  }
}
