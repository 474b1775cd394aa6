import {Args} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxSnapshotSave extends SvcCommand<typeof SandboxSnapshotSave> {
  static override summary = 'Save the whole state of the local sandbox under NAME (replacing a snapshot of that name).'
  static override examples = ['<%= config.bin %> sandbox snapshot save before-import']
  static override args = {name: Args.string({description: 'Snapshot name: 1 to 64 letters, digits, dots, dashes or underscores.', required: true})}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.snapshotSave(this.ctx, this.args.name)
  }
}
