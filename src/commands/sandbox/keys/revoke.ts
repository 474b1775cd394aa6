import {Args} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxKeysRevoke extends SvcCommand<typeof SandboxKeysRevoke> {
  static override summary = 'Revoke a key of the local sandbox: it gets 401 from then on.'
  static override examples = ['<%= config.bin %> sandbox keys revoke key_3k2j1']
  static override args = {id: Args.string({description: 'Key id (from keys list).', required: true})}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.keysRevoke(this.ctx, this.args.id)
  }
}
