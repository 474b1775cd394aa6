import {Args} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxClockAdvance extends SvcCommand<typeof SandboxClockAdvance> {
  static override summary = 'Move the sandbox clock forward, running everything that falls due (settlements, retries, expiries).'
  static override examples = ['<%= config.bin %> sandbox clock advance 5m', '<%= config.bin %> sandbox clock advance 7d']
  static override args = {duration: Args.string({description: 'How far: 250ms, 2s, 5m, 2h, 7d.', required: true})}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.clockAdvance(this.ctx, this.args.duration)
  }
}
