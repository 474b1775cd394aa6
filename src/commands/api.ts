import {Args, Flags} from '@oclif/core'

import {SvcCommand} from '../lib/command.js'

export default class Api extends SvcCommand<typeof Api> {
  static override summary = "Send a raw request with the profile's key (like `gh api`)."
  static override description =
    'The response body is printed as JSON. The client retry policy applies: reads retry on 429/5xx, ' +
    'POST /v1/payments is never retried. With -F/-f, fields are the query of a GET and the JSON body otherwise.'
  static override examples = [
    '<%= config.bin %> api GET /v1/payments -F limit=5',
    '<%= config.bin %> api POST /v1/payments -F amount=5000 -f phone_number=237670000001 -f operator=MTN',
    '<%= config.bin %> api POST /v1/payments -d \'{"amount":5000,"phone_number":"237670000001","operator":"MTN"}\'',
    '<%= config.bin %> api POST /v1/invoices -d @invoice.json --idempotency-key 7d1c…',
    '<%= config.bin %> api GET /v1/payments/svcpay_test_8f2k1/status -i',
  ]
  static override args = {
    method: Args.string({description: 'GET, POST, PUT, PATCH, DELETE or HEAD.', required: true}),
    path: Args.string({description: 'Path under the base URL, e.g. /v1/payments.', required: true}),
  }
  static override flags = {
    data: Flags.string({char: 'd', description: 'JSON body: inline, @FILE, or - for standard input.'}),
    field: Flags.string({char: 'F', description: 'A key=value field (numbers, true, false, null typed).', multiple: true}),
    'raw-field': Flags.string({char: 'f', description: 'A key=value field, always a string (e.g. phone numbers).', multiple: true}),
    'idempotency-key': Flags.string({description: 'Idempotency-Key header to send.'}),
    include: Flags.boolean({char: 'i', description: 'Print the status line and response headers first.'}),
  }

  async run(): Promise<void> {
    const {rawRequest} = await import('../lib/raw/request.js')
    await rawRequest(this.ctx, this.args.method, this.args.path, this.flags)
  }
}
