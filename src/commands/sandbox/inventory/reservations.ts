import {Flags} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxInventoryReservations extends SvcCommand<typeof SandboxInventoryReservations> {
  static override summary = 'Stock reservations made by published invoices (7 days), confirmed by payment or released.'
  static override examples = ['<%= config.bin %> sandbox inventory reservations', '<%= config.bin %> sandbox inventory reservations --invoice inv_test_3k2']
  static override flags = {
    env: Flags.option({options: ['sandbox', 'live'] as const, description: 'Environment.'})(),
    invoice: Flags.string({description: 'Only this invoice.'}),
  }

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.inventoryReservations(this.ctx, this.flags)
  }
}
