
import {SvcCommand} from '../../../lib/command.js'

export default class SandboxFeesShow extends SvcCommand<typeof SandboxFeesShow> {
  static override summary = "The business's charge tier and absorb-fees flag."
  static override examples = ['<%= config.bin %> sandbox fees show']

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.feesShow(this.ctx)
  }
}
