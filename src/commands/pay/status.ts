import {Args} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class PayStatus extends SvcCommand<typeof PayStatus> {
  static override summary = "Show a payment's current status."
  static override examples = ['<%= config.bin %> pay status svcpay_test_8f2k1', '<%= config.bin %> pay status svcpay_test_8f2k1 --json']
  static override args = {id: Args.string({description: 'Payment id.', required: true})}

  async run(): Promise<void> {
    const {payStatus} = await import('../../lib/payments/cli.js')
    await payStatus(this.ctx, this.args.id)
  }
}
