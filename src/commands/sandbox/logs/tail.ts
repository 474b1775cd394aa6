import {SvcCommand} from '../../../lib/command.js'
import {journalFlags} from '../../../lib/sandbox-admin/journal-flags.js'

export default class SandboxLogsTail extends SvcCommand<typeof SandboxLogsTail> {
  static override summary = 'Stream the requests the local sandbox answers, as they happen, until Ctrl-C.'
  static override description = "One line per request of your app (--all: svc's own too; --json: one JSON object per line), with the filters of `svc sandbox requests`."
  static override examples = ['<%= config.bin %> sandbox logs tail', '<%= config.bin %> sandbox logs tail --status 4xx,5xx --json']
  static override flags = {...journalFlags}

  private readonly stop = new AbortController()

  async run(): Promise<void> {
    const {tailRequests} = await import('../../../lib/sandbox-admin/journal.js')
    await tailRequests(this.ctx, this.flags, this.stop.signal)
  }

  protected override async onInterrupt(): Promise<void> {
    this.stop.abort()
  }
}
