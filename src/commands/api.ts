import {Args, Flags} from '@oclif/core'

import {SvcCommand} from '../lib/command.js'

export default class Api extends SvcCommand<typeof Api> {
  static override summary = "Send a raw request with the profile's key (like `gh api`)."
  static override description =
    'GET by default, POST once -f, -F, --input or -d give parameters; -X chooses. Fields are the query of a GET ' +
    '(and of a request whose body is --input), the JSON body otherwise. The response body is printed as JSON ' +
    '(--jq filters it). --paginate follows the list envelopes and prints every item in one array. The client retry ' +
    'policy applies: reads retry on 429/5xx, POST /v1/payments is never retried, POST /v1/invoices always carries an ' +
    'Idempotency-Key. The older form `svc api METHOD PATH` still works.'
  static override examples = [
    '<%= config.bin %> api /v1/payments',
    '<%= config.bin %> api /v1/payments -X GET -F limit=5 --jq \'.data[].id\'',
    '<%= config.bin %> api /v1/invoices --paginate -X GET -f status=UNPAID',
    '<%= config.bin %> api /v1/payments -F amount=5000 -f phone_number=237670000001 -f operator=MTN',
    '<%= config.bin %> api /v1/invoices --input invoice.json --idempotency-key 7d1c…',
    '<%= config.bin %> api /v1/payments/svcpay_test_8f2k1/status --include',
    '<%= config.bin %> api POST /v1/payments -d \'{"amount":5000,"phone_number":"237670000001","operator":"MTN"}\'',
  ]
  static override args = {
    path: Args.string({description: 'Path under the base URL, e.g. /v1/payments (or a method, then the path: `svc api POST /v1/payments`).', required: true, ignoreStdin: true}),
    legacyPath: Args.string({description: 'The path, when the first argument is a method (the older form).', required: false, ignoreStdin: true}),
  }
  static override flags = {
    method: Flags.string({char: 'X', description: 'HTTP method: GET, POST, PUT, PATCH, DELETE or HEAD (default GET, or POST when parameters are given).'}),
    field: Flags.string({char: 'F', description: 'A key=value parameter, typed: numbers, true, false, null; @FILE reads the value from a file (@- standard input).', multiple: true}),
    'raw-field': Flags.string({char: 'f', description: 'A key=value parameter, always a string (e.g. phone numbers).', multiple: true}),
    input: Flags.string({description: 'The request body (JSON) from a file, or - for standard input; -f/-F then go to the query.'}),
    data: Flags.string({char: 'd', description: 'JSON body: inline, @FILE, or - for standard input.'}),
    header: Flags.string({char: 'H', description: 'An extra request header, "Name: value" (repeatable).', multiple: true}),
    'idempotency-key': Flags.string({description: 'Idempotency-Key header to send.'}),
    include: Flags.boolean({char: 'i', description: 'Print the status line and response headers first.'}),
    paginate: Flags.boolean({description: 'GET every page of a list (following its envelope) and print every item in one array.'}),
  }

  async run(): Promise<void> {
    const {rawRequest} = await import('../lib/raw/request.js')
    await rawRequest(this.ctx, this.args.path, this.args.legacyPath, this.flags)
  }
}
