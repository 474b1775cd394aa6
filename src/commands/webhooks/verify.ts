import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class WebhooksVerify extends SvcCommand<typeof WebhooksVerify> {
  static override summary = 'Check a webhook delivery by hand and say exactly why it fails.'
  static override description =
    'Exit 0 when the signature verifies; 1 when it does not, with the reason (signature mismatch, timestamp outside ' +
    'the tolerance, header missing, secret malformed…); 2 when a flag is unusable (unreadable payload file, ' +
    'malformed --header). --json prints the report either way.'
  static override examples = [
    '<%= config.bin %> webhooks verify --secret whsec_… --payload body.json --header "webhook-id: evt_1" --header "webhook-timestamp: 1767225600" --header "webhook-signature: v1,…"',
    'cat body.json | <%= config.bin %> webhooks verify --secret "$SECRET" --payload - --header … --tolerance 10m --json',
  ]
  static override flags = {
    secret: Flags.string({description: 'The signing secret, whsec_….', required: true}),
    payload: Flags.string({description: 'The raw body: a file, or - for stdin.', required: true}),
    header: Flags.string({multiple: true, description: 'A delivery header, "Name: value" (repeatable).'}),
    tolerance: Flags.string({default: '5m', description: 'How far the timestamp may be from now.'}),
  }

  async run(): Promise<void> {
    const {webhooksVerify} = await import('../../lib/webhooks/verify-cli.js')
    await webhooksVerify(this.ctx, this.flags)
  }
}
