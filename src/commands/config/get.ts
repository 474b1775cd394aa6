import {Args} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class ConfigGet extends SvcCommand<typeof ConfigGet> {
  static override summary = 'Show a setting (or every setting) in force for the profile in use.'
  static override description = 'With a key, prints its value alone; without, a table of every setting, its value and where it comes from (the profile, every profile, the default).'
  static override examples = ['<%= config.bin %> config get', '<%= config.bin %> config get invoice.prefix']
  static override args = {key: Args.string({description: 'Setting: invoice.prefix, invoice.width or invoice.numbering.'})}

  async run(): Promise<void> {
    const {configGet} = await import('../../lib/config/settings-cli.js')
    await configGet({configDir: this.ctx.configDir, named: this.ctx.flags.profile ?? (this.ctx.env.SVC_PROFILE || undefined), io: this.ctx.io}, this.args.key)
  }
}
