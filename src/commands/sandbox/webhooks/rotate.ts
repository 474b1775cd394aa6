import {Args} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxWebhooksRotate extends SvcCommand<typeof SandboxWebhooksRotate> {
  static override summary = 'Rotate the signing secret of an endpoint (the old one keeps signing for a while).'
  static override examples = ['<%= config.bin %> sandbox webhooks rotate we_2k1j']
  static override args = {id: Args.string({description: 'Endpoint id.', required: true})}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.webhooksRotate(this.ctx, this.args.id)
  }
}
