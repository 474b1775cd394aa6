
import {SvcCommand} from '../../../lib/command.js'

export default class SandboxClockShow extends SvcCommand<typeof SandboxClockShow> {
  static override summary = 'The sandbox clock: its time, offset and pending tasks.'
  static override examples = ['<%= config.bin %> sandbox clock show']

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.clockShow(this.ctx)
  }
}
