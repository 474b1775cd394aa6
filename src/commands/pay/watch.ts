import {Args, Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class PayWatch extends SvcCommand<typeof PayWatch> {
  static override summary = 'Wait until a payment settles: exit 0 on SUCCESS, 1 on FAILED, 8 on timeout.'
  static override examples = [
    '<%= config.bin %> pay watch svcpay_test_8f2k1',
    '<%= config.bin %> pay watch svcpay_test_8f2k1 --interval 5s --timeout 10m --json',
  ]
  static override args = {id: Args.string({description: 'Payment id.', required: true})}
  static override flags = {
    interval: Flags.string({description: 'Time between status checks (backs off on errors).', default: '3s'}),
    timeout: Flags.string({description: 'Give up after this long (exit 8; exit 7 when the service could not be reached).', default: '5m'}),
  }

  async run(): Promise<void> {
    const {payWatch} = await import('../../lib/payments/cli.js')
    await payWatch(this.ctx, this.args.id, this.flags)
  }
}
