import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class PayCreate extends SvcCommand<typeof PayCreate> {
  static override summary = "Collect money from a customer's mobile money wallet."
  static override description =
    'The customer approves on their phone; the payment is PENDING until then. It is sent once and never retried: ' +
    'if the answer is lost, svc looks the payment up instead of prompting the customer twice (exit 7 if not found).\n\n' +
    'Amounts are whole XAF ("5000", "5 000", "5,000"). Phones: 670000001, 237670000001 or +237 6 70 00 00 01. ' +
    'The operator is inferred from the number when omitted.'
  static override examples = [
    '<%= config.bin %> pay create --amount 5000 --phone 670000001',
    '<%= config.bin %> pay create --amount "12 500" --phone "+237 6 90 00 00 01" --operator ORANGE --watch',
    '<%= config.bin %> pay create --amount 5000 --phone 670000099 --watch --json',
  ]
  static override flags = {
    amount: Flags.string({char: 'a', description: 'Amount in whole XAF (integer ≥ 1).'}),
    phone: Flags.string({char: 'p', description: "Customer's number: 9 digits, 237…, or +237…."}),
    operator: Flags.string({char: 'o', description: 'MTN or ORANGE (inferred from the number when omitted).'}),
    watch: Flags.boolean({char: 'w', description: 'Wait for SUCCESS or FAILED (as `pay watch`).'}),
    'dry-run': Flags.boolean({description: 'Check the amount, number and operator and show the request; send nothing.', exclusive: ['watch']}),
    interval: Flags.string({description: 'With --watch: time between status checks.', default: '3s'}),
    timeout: Flags.string({description: 'With --watch: give up after this long (exit 8).', default: '5m'}),
  }

  async run(): Promise<void> {
    const {payCreate} = await import('../../lib/payments/cli.js')
    await payCreate(this.ctx, this.flags)
  }
}
