import {SvcCommand} from '../../../lib/command.js'

export default class SandboxSnapshotList extends SvcCommand<typeof SandboxSnapshotList> {
  static override summary = 'The saved snapshots of the local sandbox: name, when, size.'
  static override examples = ['<%= config.bin %> sandbox snapshot list', '<%= config.bin %> sandbox snapshot list --json']

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.snapshotList(this.ctx)
  }
}
