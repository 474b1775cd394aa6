import {SvcCommand} from '../../lib/command.js'

export default class SandboxInspector extends SvcCommand<typeof SandboxInspector> {
  static override summary = 'A new one-time login link to the local sandbox’s web inspector.'
  static override description = '`svc sandbox serve` prints one; each link logs one browser in once.'
  static override examples = ['<%= config.bin %> sandbox inspector']

  async run(): Promise<void> {
    const {inspectorLink} = await import('../../lib/sandbox-admin/journal.js')
    await inspectorLink(this.ctx)
  }
}
