import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class WebhooksEvents extends SvcCommand<typeof WebhooksEvents> {
  static override summary = 'List the local event log: what `svc webhooks listen` received and how your app answered.'
  static override description =
    'Newest first: when each event was received, its id and type, its status (delivered: your app answered 2xx; ' +
    'failed: attempted, never accepted; pending: not attempted yet; skipped: filtered out or no route), the attempts ' +
    'and the last answer. --json prints an array of {id, type, received_at, source, status, attempts}.'
  static override examples = [
    '<%= config.bin %> webhooks events',
    '<%= config.bin %> webhooks events --status failed --limit 50',
    '<%= config.bin %> webhooks events --json',
  ]
  static override flags = {
    status: Flags.option({options: ['delivered', 'pending', 'failed'] as const, description: 'Only events in this status.'})(),
    limit: Flags.integer({default: 20, description: 'The newest N events (1–10000).', aliases: ['page-size']}),
  }

  async run(): Promise<void> {
    const {webhooksEvents} = await import('../../lib/webhooks/events-cli.js')
    await webhooksEvents(this.ctx, this.flags)
  }
}
