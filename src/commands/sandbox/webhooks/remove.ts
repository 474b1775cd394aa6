import {Args} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxWebhooksRemove extends SvcCommand<typeof SandboxWebhooksRemove> {
  static override summary = 'Remove a webhook endpoint from the local sandbox.'
  static override examples = ['<%= config.bin %> sandbox webhooks remove we_2k1j']
  static override args = {id: Args.string({description: 'Endpoint id.', required: true})}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.webhooksRemove(this.ctx, this.args.id)
  }
}
