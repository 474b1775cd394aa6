import {Args} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxSnapshotRestore extends SvcCommand<typeof SandboxSnapshotRestore> {
  static override summary = 'Bring the local sandbox back to the state saved under NAME, all at once.'
  static override examples = ['<%= config.bin %> sandbox snapshot restore before-import']
  static override args = {name: Args.string({description: 'Snapshot name: 1 to 64 letters, digits, dots, dashes or underscores.', required: true})}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.snapshotRestore(this.ctx, this.args.name)
  }
}
