import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class SandboxWalkthrough extends SvcCommand<typeof SandboxWalkthrough> {
  static override summary = 'A guided tour: payments that succeed and fail, their signed events, an invoice paid on its checkout page.'
  static override description =
    'Runs against the sandbox of your profile when it holds a sandbox key, otherwise against a local sandbox started ' +
    'inside the command (no key, no network). Each step checks what the spec says should happen; the tour exits 0 only ' +
    'if every step did, and ends with what to run next. Narration goes to stderr, the summary table (or --json) to stdout.'
  static override examples = ['<%= config.bin %> sandbox walkthrough', '<%= config.bin %> sandbox walkthrough --json', '<%= config.bin %> --profile local sandbox walkthrough']
  static override flags = {
    'settle-after': Flags.string({description: 'How long payments stay PENDING in the in-process sandbox.', default: '1s'}),
    patience: Flags.string({description: 'How long to wait for a settlement or an event before calling a step failed.', default: '30s'}),
  }

  async run(): Promise<void> {
    const {runWalkthrough} = await import('../../lib/walkthrough/tour.js')
    const {parseDuration} = await import('../../lib/time/duration.js')
    await runWalkthrough(this.ctx, {
      settleAfterMs: parseDuration(this.flags['settle-after'], 'settle-after'),
      patienceMs: parseDuration(this.flags.patience, 'patience', {min: 1000}),
    })
  }
}
