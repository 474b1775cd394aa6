import {Args, Flags} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxOperatorDown extends SvcCommand<typeof SandboxOperatorDown> {
  static override summary = "Take an operator down in the sandbox: its payments fail, stay UNSPECIFIED until it is back, or settle slowly."
  static override description =
    'fail: payments fail with PROVIDER_UNAVAILABLE. unspecified: they stay UNSPECIFIED until the operator comes back, then resolve. slow: they settle after a minute. On the sandbox clock.'
  static override examples = [
    '<%= config.bin %> sandbox operator down MTN --for 10m',
    '<%= config.bin %> sandbox operator down ORANGE --mode unspecified',
  ]
  static override args = {operator: Args.string({options: ['MTN', 'ORANGE'], description: 'MTN or ORANGE.', required: true})}
  static override flags = {
    for: Flags.string({description: 'How long, on the sandbox clock (default: until `operator up`).'}),
    mode: Flags.option({options: ['fail', 'unspecified', 'slow'] as const, description: 'What its payments do meanwhile.', default: 'fail'})(),
  }

  async run(): Promise<void> {
    const scenarios = await import('../../../lib/sandbox-admin/scenarios.js')
    await scenarios.operatorDown(this.ctx, this.args.operator, this.flags)
  }
}
