import {Flags} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxKeysCreate extends SvcCommand<typeof SandboxKeysCreate> {
  static override summary = 'Mint an API key for the local sandbox (the secret is shown once).'
  static override examples = ['<%= config.bin %> sandbox keys create --env sandbox --scopes payments:read']
  static override flags = {
    env: Flags.option({options: ['sandbox', 'live'] as const, description: 'Environment of the key.', default: 'sandbox'})(),
    scopes: Flags.string({description: 'Comma-separated scopes (default: all): payments:read, payments:write, invoices:read, invoices:write, invoices:send, files:write.'}),
  }

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.keysCreate(this.ctx, this.flags)
  }
}
