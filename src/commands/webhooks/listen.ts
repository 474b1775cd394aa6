import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'
import type {ListenHandle} from '../../lib/webhooks/listen-cli.js'

export default class WebhooksListen extends SvcCommand<typeof WebhooksListen> {
  static override summary = 'Receive events and forward them, signed afresh, to your local app.'
  static override description =
    'Events come from the local sandbox (the receiver is registered as its webhook endpoint of both environments while this runs, each line marked SANDBOX or LIVE; --env narrows), ' +
    'from inbound deliveries verified with the endpoint signing secret (--endpoint-secret-stdin, saved in the profile; ' +
    'point a tunnel at --port), or else from polling the payments list (--source forces one).\n\n' +
    'Every event is re-signed with a local secret (whsec_…, generated once per profile; --print-secret prints it) so your ' +
    'app verifies exactly as in production. One line per event on stdout (--json: one JSON object per line). An app that ' +
    'is down or answers non-2xx gets the event again with backoff; Ctrl-C says what is still pending (exit 130). ' +
    'Events are logged per profile in the config directory, for `svc webhooks replay`.'
  static override examples = [
    '<%= config.bin %> webhooks listen --forward-to http://localhost:3000/webhooks',
    '<%= config.bin %> webhooks listen --forward-to localhost:3000/hooks --forward-to payment.failed=http://localhost:3000/failed',
    '<%= config.bin %> webhooks listen --forward-to localhost:3000/hooks --events payment.success -H "X-Env: dev"',
    'printf %s "$ENDPOINT_SECRET" | <%= config.bin %> webhooks listen --endpoint-secret-stdin --forward-to localhost:3000/hooks --port 4242',
    '<%= config.bin %> webhooks listen --print-secret',
    '<%= config.bin %> webhooks listen --forward-to localhost:3000/hooks --env live',
  ]
  static override flags = {
    'forward-to': Flags.string({char: 'f', multiple: true, description: 'Your app: URL, or TYPE=URL for one event type (repeatable).'}),
    events: Flags.string({char: 'e', multiple: true, description: 'Only these event types (comma-separated or repeated).'}),
    port: Flags.integer({char: 'p', min: 0, max: 65535, description: 'Port of the receiver on 127.0.0.1 (default: any free port).'}),
    header: Flags.string({char: 'H', multiple: true, description: 'Extra header on forwarded requests, "Name: value" (repeatable).'}),
    'print-secret': Flags.boolean({description: 'Print the local signing secret alone and exit.'}),
    source: Flags.option({options: ['auto', 'inbound', 'poll'] as const, default: 'auto', description: 'Where events come from.'})(),
    'endpoint-secret-stdin': Flags.boolean({description: 'Read the endpoint signing secret for inbound deliveries from stdin and save it.'}),
    'poll-interval': Flags.string({default: '5s', description: 'With the poll source: time between reads of the payments list.'}),
    env: Flags.option({
      options: ['sandbox', 'live'] as const,
      description: 'Only this environment’s events. A local sandbox forwards both by default, each line marked SANDBOX or LIVE; another source, the key’s.',
    })(),
  }

  private starting?: Promise<ListenHandle | undefined>

  async run(): Promise<void> {
    const {webhooksListen} = await import('../../lib/webhooks/listen-cli.js')
    this.starting = webhooksListen(this.ctx, this.flags)
    await (await this.starting)?.done
  }

  protected override async onInterrupt(): Promise<void> {
    // A signal that lands while listen is still starting (its endpoint maybe registered already)
    // waits for the start, so the clean-up still removes what was set up.
    const handle = await this.starting?.catch(() => undefined)
    await handle?.interrupt()
  }
}
