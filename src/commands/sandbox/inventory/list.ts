import {Flags} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxInventoryList extends SvcCommand<typeof SandboxInventoryList> {
  static override summary = "The business's catalogue: quantity, reserved by published invoices, available."
  static override examples = ['<%= config.bin %> sandbox inventory list', '<%= config.bin %> sandbox inventory list --env live --json']
  static override flags = {env: Flags.option({options: ['sandbox', 'live'] as const, description: 'Environment.'})()}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.inventoryList(this.ctx, this.flags)
  }
}
