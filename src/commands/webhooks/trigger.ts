import {Args, Flags} from '@oclif/core'

import {EVENT_TYPES} from '../../contract/events.js'
import {SvcCommand} from '../../lib/command.js'

export default class WebhooksTrigger extends SvcCommand<typeof WebhooksTrigger> {
  static override summary = 'Make a real sandbox payment so that a real event follows (sandbox keys only).'
  static override description =
    "The payment uses the spec's test number for the outcome (1 000 XAF), so the event is the service's own. " +
    'Refused on a LIVE key (exit 2).'
  static override examples = [
    '<%= config.bin %> webhooks trigger payment.success',
    '<%= config.bin %> webhooks trigger payment.failed --operator ORANGE --watch',
  ]
  static override args = {
    event: Args.string({description: 'Event type.', required: true, options: [...EVENT_TYPES]}),
  }
  static override flags = {
    operator: Flags.option({char: 'o', options: ['MTN', 'ORANGE'] as const, description: 'Operator of the test number (default MTN).'})(),
    watch: Flags.boolean({char: 'w', description: 'Wait until the payment settles.'}),
  }

  async run(): Promise<void> {
    const {webhooksTrigger} = await import('../../lib/webhooks/trigger-cli.js')
    await webhooksTrigger(this.ctx, this.args.event, this.flags)
  }
}
