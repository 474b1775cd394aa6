import {SvcCommand} from '../../lib/command.js'

export default class SandboxList extends SvcCommand<typeof SandboxList> {
  static override summary = 'The local sandboxes running from this config directory: URL, PID, data file, profile.'
  static override description =
    'Each `svc sandbox serve` enters itself here while it runs; the first owns the profile "local", the others their own ' +
    '(`local-PORT`, or --profile-name). Entries of sandboxes that died are removed. --json gives a bare array.'
  static override examples = ['<%= config.bin %> sandbox list', '<%= config.bin %> sandbox list --json']

  async run(): Promise<void> {
    const {listSandboxes} = await import('../../lib/sandbox-admin/list.js')
    await listSandboxes(this.ctx)
  }
}
