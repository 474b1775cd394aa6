import {Args, Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class WebhooksTest extends SvcCommand<typeof WebhooksTest> {
  static override summary = 'Grade your own webhook handler: send it signed test deliveries and judge each answer.'
  static override description =
    'Sends a battery of deliveries shaped exactly as the service\'s (Standard Webhooks headers, test data: SANDBOX ' +
    'environment, evt_test_…/svcpay_test_… ids). Must accept (2xx): valid-success, valid-failed, raw-body, duplicate, ' +
    'unknown-type, extra-fields, rotation, burst (50 at once). Must refuse (4xx): bad-signature, wrong-secret, ' +
    'missing-headers, stale-timestamp, future-timestamp, tampered-body. Over 5 s is a warning; past --timeout a failure.\n\n' +
    'The secret defaults to the local signing secret `svc webhooks listen` signs with, so an app set up for listen is ' +
    'tested as is. A URL off this machine is confirmed first (--yes skips it; refused without --yes when not interactive, ' +
    'exit 2). Exit 0 when every case passes, 1 otherwise.'
  static override examples = [
    '<%= config.bin %> webhooks test http://localhost:3000/webhooks',
    '<%= config.bin %> webhooks test localhost:3000/webhooks --only raw-body,duplicate --timeout 5s',
    '<%= config.bin %> webhooks test http://localhost:3000/webhooks --secret "$WEBHOOK_SECRET" --json',
  ]
  static override args = {url: Args.string({description: 'Your webhook handler: http(s) URL (a bare localhost:3000/… is http).', required: true})}
  static override flags = {
    secret: Flags.string({description: 'The secret your handler verifies with, whsec_… (default: the local signing secret).'}),
    only: Flags.string({description: 'Only these cases, comma-separated.'}),
    timeout: Flags.string({default: '15s', description: 'How long to wait for each answer (the service waits 15 s).'}),
  }

  async run(): Promise<void> {
    const {webhooksTest} = await import('../../lib/webhooks/test-cli.js')
    await webhooksTest(this.ctx, this.args.url, this.flags)
  }
}
