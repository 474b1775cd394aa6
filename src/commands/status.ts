import {SvcCommand} from '../lib/command.js'

export default class Status extends SvcCommand<typeof Status> {
  static override summary = 'Show what commands use now: profile, environment, base URL, masked key, language, local sandbox; and whether it answers.'
  static override description =
    'Exit 0 when the base URL answers and accepts the key, 3 when it refuses the key (or there is none), 7 when it cannot be reached ' +
    '(a local sandbox that is not running included). --profile, --api-key and --base-url show what they would choose.'
  static override examples = ['<%= config.bin %> status', '<%= config.bin %> status --profile local --json']

  async run(): Promise<void> {
    const {status} = await import('../lib/login/status.js')
    await status(this.ctx)
  }
}
