import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class SandboxOutbox extends SvcCommand<typeof SandboxOutbox> {
  static override summary = 'Invoice deliveries the sandbox recorded (EMAIL, WHATSAPP): recipient, pay link, PDF link.'
  static override description = 'Nothing is sent anywhere: publish with a channel and send are recorded here, newest first.'
  static override examples = ['<%= config.bin %> sandbox outbox', '<%= config.bin %> sandbox outbox --invoice inv_test_3k2 --json']
  static override flags = {
    env: Flags.option({options: ['sandbox', 'live'] as const, description: 'Environment.'})(),
    invoice: Flags.string({description: 'Only this invoice.'}),
    channel: Flags.option({options: ['EMAIL', 'WHATSAPP'] as const, description: 'Only this channel.'})(),
    limit: Flags.integer({description: 'How many (1–100).', default: 20, min: 1, max: 100, aliases: ['page-size']}),
    offset: Flags.integer({description: 'Skip this many deliveries.', min: 0}),
  }

  async run(): Promise<void> {
    const dashboard = await import('../../lib/sandbox-admin/dashboard.js')
    await dashboard.outbox(this.ctx, this.flags)
  }
}
