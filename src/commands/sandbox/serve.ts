import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'
import type {RunningSandbox} from '../../lib/sandbox-admin/serve.js'
import type {Detaching} from '../../lib/sandbox-exec/detach.js'

export default class SandboxServe extends SvcCommand<typeof SandboxServe> {
  static override summary = 'Run the local sandbox in the foreground (Ctrl-C stops it).'
  static override description =
    'A faithful, stateful local implementation of the service: payments, invoices, keys, limits, events, checkout. ' +
    'Prints its base URL, a sandbox key and a live key, and saves the profile "local" (and "local-live" with the live key, never made current) so that ' +
    '`svc --profile local …` and the `svc sandbox …` dashboard commands work from another terminal. ' +
    'While another sandbox of this config directory runs and owns "local", it saves "local-PORT" instead (or --profile-name) ' +
    'and says so; `svc sandbox list` shows the running ones. With --data, the file is held while it runs: a second serve on it exits 2.'
  static override examples = [
    '<%= config.bin %> sandbox serve',
    'set -a; eval "$(<%= config.bin %> sandbox serve --detach --port 0)"; set +a; npm test; <%= config.bin %> sandbox stop',
    '<%= config.bin %> sandbox serve --port 9000 --settle-after 250ms --seed 42',
    '<%= config.bin %> sandbox serve --rate-limit 0 --data ./sandbox.db',
    'SVC_SANDBOX_ADMIN_TOKEN=ci-sandbox-admin-token <%= config.bin %> sandbox serve --host 0.0.0.0',
    '<%= config.bin %> sandbox serve --port 8788 --profile-name shop-tests',
    '<%= config.bin %> sandbox serve --open',
  ]
  static override flags = {
    port: Flags.integer({description: 'Port to listen on (0: any free port).', default: 8787, min: 0, max: 65535}),
    host: Flags.string({description: 'Address to bind (loopback by default).', default: '127.0.0.1'}),
    'settle-after': Flags.string({description: 'How long a sandbox payment stays PENDING (0, 250ms, 2s, 5m).', default: '2s'}),
    seed: Flags.integer({description: 'Seed for the outcomes of non-test numbers (reproducible runs).'}),
    'rate-limit': Flags.integer({description: 'Requests per key per minute (0: no limit).', default: 100}),
    'admin-token': Flags.string({
      description:
        'The admin token to accept (default: a random one), so that another machine or container can drive this sandbox with SVC_SANDBOX_URL and SVC_SANDBOX_ADMIN_TOKEN.',
      env: 'SVC_SANDBOX_ADMIN_TOKEN',
    }),
    'profile-name': Flags.string({
      description: 'The profile to save this sandbox as (default: "local", or "local-PORT" while another running sandbox owns "local").',
    }),
    log: Flags.boolean({description: "Print one line per request of your app on stderr (the request journal; `svc sandbox requests` lists them)."}),
    open: Flags.boolean({description: 'Open the web inspector in your browser (where none can be opened, its address is printed).'}),
    data: Flags.string({
      description:
        'Keep state in this SQLite database across restarts, every acknowledged write on disk (in memory by default). A JSON data file of an older svc is imported once.',
    }),
    detach: Flags.boolean({
      description:
        'Run in the background: return once the sandbox answers, printing the settings `svc sandbox exec` gives a command (`export KEY=value` lines for `eval "$(…)"`; --json: an object). `svc sandbox stop` stops it.',
    }),
  }

  private running?: RunningSandbox
  private detaching?: Detaching

  async run(): Promise<void> {
    if (this.flags.detach) {
      const {startDetached} = await import('../../lib/sandbox-exec/detach.js')
      this.detaching = startDetached(this.ctx, this.argv)
      return this.detaching.done
    }
    const {serveSandbox} = await import('../../lib/sandbox-admin/serve.js')
    this.running = await serveSandbox(this.ctx, this.flags)
    // Started by `serve --detach`: tell it the sandbox answers.
    if (this.ctx.env.SVC_SANDBOX_DETACHED) (await import('../../lib/sandbox-exec/detach.js')).reportToParent(this.ctx.env, this.running.info)
    await new Promise<void>(() => {})
  }

  protected override async onInterrupt(): Promise<void> {
    this.detaching?.abort()
    await this.running?.close()
  }
}
