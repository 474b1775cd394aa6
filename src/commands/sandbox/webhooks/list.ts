import {Flags} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxWebhooksList extends SvcCommand<typeof SandboxWebhooksList> {
  static override summary = "The local sandbox's webhook endpoints (secrets masked)."
  static override examples = ['<%= config.bin %> sandbox webhooks list']
  static override flags = {env: Flags.option({options: ['sandbox', 'live'] as const, description: 'Environment.'})()}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.webhooksList(this.ctx, this.flags)
  }
}
