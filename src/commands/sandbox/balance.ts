import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class SandboxBalance extends SvcCommand<typeof SandboxBalance> {
  static override summary = "The merchant balance (net of fees) and fees taken, per environment."
  static override examples = ['<%= config.bin %> sandbox balance', '<%= config.bin %> sandbox balance --env live --json']
  static override flags = {env: Flags.option({options: ['sandbox', 'live'] as const, description: 'Only this environment.'})()}

  async run(): Promise<void> {
    const dashboard = await import('../../lib/sandbox-admin/dashboard.js')
    await dashboard.balance(this.ctx, this.flags)
  }
}
