import {Args, Flags} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxWebhooksAdd extends SvcCommand<typeof SandboxWebhooksAdd> {
  static override summary = 'Register a webhook endpoint with the local sandbox; prints its signing secret.'
  static override examples = ['<%= config.bin %> sandbox webhooks add http://localhost:3000/webhooks', '<%= config.bin %> sandbox webhooks add http://localhost:3000/live-hooks --env live']
  static override args = {url: Args.string({description: 'Endpoint URL.', required: true})}
  static override flags = {env: Flags.option({options: ['sandbox', 'live'] as const, description: 'Environment whose events it receives.', default: 'sandbox'})()}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.webhooksAdd(this.ctx, this.args.url, this.flags)
  }
}
