import {Args, Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class WebhooksReplay extends SvcCommand<typeof WebhooksReplay> {
  static override summary = 'Send a logged event (or every failed one) to your local app again.'
  static override description =
    'Signed afresh with the local secret (same webhook-id, new timestamp; --new-id sends under a fresh webhook-id, for an ' +
    'app that dedupes). --all-failed sends every event your app never accepted (svc webhooks events --status failed). ' +
    'Without --forward-to (and -H), it uses the routes (and headers) `svc webhooks listen` last used for this profile. ' +
    'Exit 4 for an id not in the local event log, 1 when the app does not answer 2xx.'
  static override examples = [
    '<%= config.bin %> webhooks replay evt_2kq1x8c0',
    '<%= config.bin %> webhooks replay evt_2kq1x8c0 --forward-to http://localhost:3000/webhooks',
    '<%= config.bin %> webhooks replay evt_2kq1x8c0 --new-id',
    '<%= config.bin %> webhooks replay --all-failed',
  ]
  static override args = {id: Args.string({description: 'Event id (evt_…), as listen printed it (or --all-failed).'})}
  static override flags = {
    'forward-to': Flags.string({char: 'f', multiple: true, multipleNonGreedy: true, description: 'Your app: URL, or TYPE=URL (repeatable).'}),
    header: Flags.string({char: 'H', multiple: true, multipleNonGreedy: true, description: 'Extra header, "Name: value" (repeatable).'}),
    'all-failed': Flags.boolean({description: 'Every event your app never accepted, oldest first.'}),
    'new-id': Flags.boolean({description: 'Send under a fresh webhook-id (the event unchanged), for an app that dedupes.'}),
  }

  async run(): Promise<void> {
    const {webhooksReplay} = await import('../../lib/webhooks/replay-cli.js')
    await webhooksReplay(this.ctx, this.args.id, this.flags)
  }
}
