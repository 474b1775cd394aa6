import {Args} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxOperatorUp extends SvcCommand<typeof SandboxOperatorUp> {
  static override summary = 'Bring an operator back: payments left UNSPECIFIED by its outage resolve.'
  static override examples = ['<%= config.bin %> sandbox operator up MTN']
  static override args = {operator: Args.string({options: ['MTN', 'ORANGE'], description: 'MTN or ORANGE.', required: true})}

  async run(): Promise<void> {
    const scenarios = await import('../../../lib/sandbox-admin/scenarios.js')
    await scenarios.operatorUp(this.ctx, this.args.operator)
  }
}
