import {Flags} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class SandboxInspector extends SvcCommand<typeof SandboxInspector> {
  static override summary = 'A new one-time login link to the local sandbox’s web inspector.'
  static override description = '`svc sandbox serve` prints one; each link logs one browser in once. With --open, it opens in your browser.'
  static override examples = ['<%= config.bin %> sandbox inspector', '<%= config.bin %> sandbox inspector --open']
  static override flags = {
    open: Flags.boolean({description: 'Open it in your browser (where none can be opened, the link is printed to open yourself).'}),
  }

  async run(): Promise<void> {
    const {inspectorLink} = await import('../../lib/sandbox-admin/journal.js')
    await inspectorLink(this.ctx, this.flags)
  }
}
