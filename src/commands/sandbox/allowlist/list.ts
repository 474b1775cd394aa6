
import {SvcCommand} from '../../../lib/command.js'

export default class SandboxAllowlistList extends SvcCommand<typeof SandboxAllowlistList> {
  static override summary = 'The IP allowlist (empty: every address is allowed).'
  static override examples = ['<%= config.bin %> sandbox allowlist list']

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.allowlistList(this.ctx)
  }
}
