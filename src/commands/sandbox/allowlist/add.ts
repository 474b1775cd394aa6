import {Args} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxAllowlistAdd extends SvcCommand<typeof SandboxAllowlistAdd> {
  static override summary = 'Add a CIDR range to the IP allowlist (then only listed addresses are accepted).'
  static override examples = ['<%= config.bin %> sandbox allowlist add 127.0.0.1/32', '<%= config.bin %> sandbox allowlist add ::1/128']
  static override args = {cidr: Args.string({description: 'IPv4 or IPv6 CIDR range.', required: true})}

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.allowlistAdd(this.ctx, this.args.cidr)
  }
}
