import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class SandboxStop extends SvcCommand<typeof SandboxStop> {
  static override summary = 'Stop a running local sandbox (one started with `serve --detach`, or in another terminal).'
  static override description =
    'Stops the sandbox that owns the profile (--profile, SVC_PROFILE, else the current one), or every running sandbox of this ' +
    'config directory with --all, as Ctrl-C would: its data flushed, its data file released; then removes its registry entry, ' +
    'the profiles it saved and its log. Exit 7 when no such sandbox runs.'
  static override examples = ['<%= config.bin %> sandbox stop', '<%= config.bin %> sandbox stop --profile local-8788', '<%= config.bin %> sandbox stop --all']
  static override flags = {
    all: Flags.boolean({description: 'Stop every running sandbox of this config directory (those of `svc sandbox exec` included).'}),
  }

  async run(): Promise<void> {
    const {stopSandboxes} = await import('../../lib/sandbox-admin/stop.js')
    await stopSandboxes(this.ctx, this.flags)
  }
}
