import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class SandboxReset extends SvcCommand<typeof SandboxReset> {
  static override summary = 'Empty the local sandbox: payments, invoices, events, balances (keys, endpoints and settings kept unless --all).'
  static override description =
    'Empties both environments and the scheduled work of the running local sandbox, on disk too with --data. ' +
    'With --all, keys, webhook endpoints, the allowlist and the business settings go as well: the sandbox mints a new ' +
    'sandbox key and live key (shown once), and the profile "local" gets the new sandbox key.'
  static override examples = ['<%= config.bin %> sandbox reset', '<%= config.bin %> sandbox reset --all --json']
  static override flags = {
    all: Flags.boolean({description: 'Also remove keys, webhook endpoints, the allowlist and the business settings.', default: false}),
  }

  async run(): Promise<void> {
    const dashboard = await import('../../lib/sandbox-admin/dashboard.js')
    await dashboard.reset(this.ctx, this.flags)
  }
}
