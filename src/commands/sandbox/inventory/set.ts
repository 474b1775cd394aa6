import {Args, Flags} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxInventorySet extends SvcCommand<typeof SandboxInventorySet> {
  static override summary = 'Set the quantity on hand of a catalogue item (a new name creates it).'
  static override examples = ['<%= config.bin %> sandbox inventory set Bread 40']
  static override args = {
    item: Args.string({description: 'SKU or item name.', required: true}),
    quantity: Args.integer({description: 'Quantity on hand (≥ 0).', required: true, min: 0}),
  }
  static override flags = {env: Flags.option({options: ['sandbox', 'live'] as const, description: 'Environment.'})()}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.inventorySet(this.ctx, this.args.item, this.args.quantity, this.flags)
  }
}
