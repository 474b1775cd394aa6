import {Args} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxAllowlistRemove extends SvcCommand<typeof SandboxAllowlistRemove> {
  static override summary = 'Remove a CIDR range from the IP allowlist.'
  static override examples = ['<%= config.bin %> sandbox allowlist remove 127.0.0.1/32']
  static override args = {cidr: Args.string({description: 'The range, as listed.', required: true})}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.allowlistRemove(this.ctx, this.args.cidr)
  }
}
