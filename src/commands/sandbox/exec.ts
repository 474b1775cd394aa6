import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'
import {Failure, type ExitCodeValue} from '../../lib/errors.js'
import {execArgv, execStreams} from '../../lib/sandbox-exec/argv.js'
import type {ExecRun} from '../../lib/sandbox-exec/exec.js'

export default class SandboxExec extends SvcCommand<typeof SandboxExec> {
  static override summary = 'Run a command against a local sandbox of its own, then stop the sandbox (CI: one line).'
  static override description =
    'Starts a sandbox on a free port (or --port), waits until it answers, runs the fixtures files in order, starts forwarding its ' +
    'events to --forward-to (signed as `svc webhooks listen` signs them), then runs CMD with SVC_BASE_URL, SVC_API_KEY (sandbox), ' +
    'SVC_LIVE_API_KEY, SVC_WEBHOOK_SECRET, SVC_SANDBOX_URL, SVC_SANDBOX_ADMIN_TOKEN and SVC_FIXTURES_FILE in its environment ' +
    '(and SVC_PROFILE removed), so the app and any svc command inside CMD reach that sandbox and no other. When CMD ends, ' +
    'everything exec started stops and exec exits with CMD\'s code (128 + N for signal N). SIGINT and SIGTERM go to CMD first. ' +
    'The sandbox runs inside exec\'s process and saves no profile: nothing outlives exec, even killed. Exec\'s own lines go to ' +
    'stderr, prefixed `svc exec:`. With --journal-on-failure, a failed CMD is followed by the requests the sandbox answered ' +
    '(on stderr, or in FILE).'
  static override examples = [
    '<%= config.bin %> sandbox exec -- npm test',
    '<%= config.bin %> sandbox exec --fixtures test/fixtures/shop-week.json --forward-to http://localhost:3000/webhooks -- npm test',
    '<%= config.bin %> sandbox exec --journal-on-failure -- sh -c "npm run build && npm test"',
    '<%= config.bin %> sandbox exec --data ./ci.db --settle-after 0 --journal-on-failure journal.txt -- npm run e2e',
  ]
  static override usage = 'sandbox exec [SERVE FLAGS] [--fixtures FILE…] [--forward-to URL…] [--journal-on-failure [FILE]] -- CMD [ARGS…]'
  static override strict = false
  static override flags = {
    port: Flags.integer({description: 'Port to listen on (default: any free port).', default: 0, min: 0, max: 65535}),
    host: Flags.string({description: 'Address to bind (loopback by default).', default: '127.0.0.1'}),
    'settle-after': Flags.string({description: 'How long a sandbox payment stays PENDING (0, 250ms, 2s, 5m).', default: '2s'}),
    seed: Flags.integer({description: 'Seed for the outcomes of non-test numbers (reproducible runs).'}),
    'rate-limit': Flags.integer({description: 'Requests per key per minute (0: no limit).', default: 100}),
    'admin-token': Flags.string({description: 'The admin token to accept (default: a random one); CMD gets it as SVC_SANDBOX_ADMIN_TOKEN.'}),
    data: Flags.string({description: 'Keep state in this SQLite database (held while exec runs; in memory by default).'}),
    log: Flags.boolean({description: 'Print one line per request on stderr (the request journal).'}),
    fixtures: Flags.string({
      multiple: true,
      description: 'A fixtures file to run before CMD (repeatable, in order); each step\'s answer goes in the file named by SVC_FIXTURES_FILE.',
    }),
    'forward-to': Flags.string({
      multiple: true,
      description: 'Forward the sandbox\'s events to this URL (or TYPE=URL; repeatable), signed with SVC_WEBHOOK_SECRET.',
    }),
    'journal-on-failure': Flags.string({
      description: 'When CMD fails, print the requests the sandbox answered on stderr (no value), or write them to this file.',
    }),
  }

  private execution?: ExecRun

  public override async init(): Promise<void> {
    this.argv = execArgv(this.argv).flags
    this.contextOptions = {...this.contextOptions, streams: execStreams(this.contextOptions.streams)}
    await super.init()
  }

  async run(): Promise<void> {
    const {startExec} = await import('../../lib/sandbox-exec/exec.js')
    this.execution = startExec(this.ctx, this.flags, execArgv(this.argv).command)
    const code = await this.execution.done
    if (code !== 0) throw new Failure(code as ExitCodeValue)
  }

  protected override async onInterrupt(signal: 'SIGINT' | 'SIGTERM'): Promise<number | void> {
    if (!this.execution) return
    this.execution.signal(signal)
    return this.execution.done.catch(() => undefined)
  }

  protected override onInterruptAgain(signal: 'SIGINT' | 'SIGTERM'): void {
    this.execution?.signal(signal)
  }
}
