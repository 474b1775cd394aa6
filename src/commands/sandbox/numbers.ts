import {SvcCommand} from '../../lib/command.js'
import {statusLabel, t} from '../../lib/i18n/index.js'
import {TEST_NUMBERS} from '../../contract/test-numbers.js'

export default class SandboxNumbers extends SvcCommand<typeof SandboxNumbers> {
  static override summary = "The sandbox's test numbers and the outcome each one always gives."
  static override description =
    'Printed without asking any sandbox. To script other numbers of a running sandbox (a customer who never answers, a given failure code): `svc sandbox numbers set|list|remove`.'
  static override examples = [
    '<%= config.bin %> sandbox numbers',
    '<%= config.bin %> sandbox numbers --json',
    '<%= config.bin %> sandbox numbers set 670112233 --operator MTN --outcome FAILED --failure-code INSUFFICIENT_FUNDS',
  ]

  async run(): Promise<void> {
    const {io} = this.ctx
    await io.result(TEST_NUMBERS, async () => {
      const paint = await io.paint()
      io.out(
        await io.table(
          [t('local.numbers.operator'), t('local.numbers.number'), t('local.numbers.national'), t('local.numbers.outcome')],
          TEST_NUMBERS.map((row) => [
            row.operator,
            row.phone,
            row.phone.slice(3),
            row.outcome === 'SUCCESS' ? paint.green(statusLabel(row.outcome)) : paint.red(statusLabel(row.outcome)),
          ]),
          [{priority: 1}, {kind: 'id'}, {priority: 3}, {priority: 2}],
        ),
      )
      io.err(t('local.numbers.footer'))
    })
  }
}
