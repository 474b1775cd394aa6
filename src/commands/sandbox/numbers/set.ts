import {Args, Flags} from '@oclif/core'
import {FAILURE_CODES} from '../../../contract/payments.js'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxNumbersSet extends SvcCommand<typeof SandboxNumbersSet> {
  static override summary = 'Script a customer: every payment from NUMBER ends the way you say, until removed.'
  static override description =
    "A stuck PENDING (the customer never answers), UNSPECIFIED then SUCCESS or FAILED after a while, a given failure code. Events follow the script. The spec's own test numbers cannot be changed."
  static override examples = [
    '<%= config.bin %> sandbox numbers set 670112233 --operator MTN --outcome FAILED --failure-code INSUFFICIENT_FUNDS',
    '<%= config.bin %> sandbox numbers set 670112234 --operator MTN --outcome PENDING',
    '<%= config.bin %> sandbox numbers set 690112235 --operator ORANGE --outcome UNSPECIFIED --then SUCCESS --after 30s',
  ]
  static override args = {number: Args.string({description: 'The customer number: 670112233, 237670112233 or +237 6 70 11 22 33.', required: true})}
  static override flags = {
    operator: Flags.option({options: ['MTN', 'ORANGE'] as const, description: 'The operator the script answers for.', required: true})(),
    outcome: Flags.option({
      options: ['SUCCESS', 'FAILED', 'PENDING', 'UNSPECIFIED'] as const,
      description: 'How every payment from this number ends (PENDING: never).',
      required: true,
    })(),
    then: Flags.option({options: ['SUCCESS', 'FAILED'] as const, description: 'With UNSPECIFIED: what the payment becomes after --after.'})(),
    after: Flags.string({description: 'With --then: how long the payment stays UNSPECIFIED, on the sandbox clock (default 30s).'}),
    'failure-code': Flags.option({
      options: FAILURE_CODES,
      description: 'The failure code of a scripted FAILED (default CUSTOMER_DECLINED).',
    })(),
  }

  async run(): Promise<void> {
    const scenarios = await import('../../../lib/sandbox-admin/scenarios.js')
    await scenarios.numbersSet(this.ctx, this.args.number, this.flags)
  }
}
