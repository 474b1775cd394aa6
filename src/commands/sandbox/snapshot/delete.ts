import {Args} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxSnapshotDelete extends SvcCommand<typeof SandboxSnapshotDelete> {
  static override summary = 'Delete the snapshot NAME.'
  static override examples = ['<%= config.bin %> sandbox snapshot delete before-import']
  static override args = {name: Args.string({description: 'Snapshot name: 1 to 64 letters, digits, dots, dashes or underscores.', required: true})}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.snapshotDelete(this.ctx, this.args.name)
  }
}
