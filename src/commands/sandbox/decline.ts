import {Args} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class SandboxDecline extends SvcCommand<typeof SandboxDecline> {
  static override summary = "Decline a PENDING live payment, as the customer would on their handset."
  static override examples = ['<%= config.bin %> sandbox decline svcpay_8f2k1']
  static override args = {id: Args.string({description: 'Live payment id.', required: true})}

  async run(): Promise<void> {
    const dashboard = await import('../../lib/sandbox-admin/dashboard.js')
    await dashboard.decide(this.ctx, this.args.id, 'decline')
  }
}
