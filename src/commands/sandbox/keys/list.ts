import {Flags} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxKeysList extends SvcCommand<typeof SandboxKeysList> {
  static override summary = "The local sandbox's API keys (masked)."
  static override examples = ['<%= config.bin %> sandbox keys list', '<%= config.bin %> sandbox keys list --env live --json']
  static override flags = {env: Flags.option({options: ['sandbox', 'live'] as const, description: 'Environment.'})()}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.keysList(this.ctx, this.flags)
  }
}
