import {SvcCommand} from '../../../lib/command.js'

export default class SandboxBusinessShow extends SvcCommand<typeof SandboxBusinessShow> {
  static override summary = "The business's name and the language its customers read."
  static override examples = ['<%= config.bin %> sandbox business show']

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.businessShow(this.ctx)
  }
}
