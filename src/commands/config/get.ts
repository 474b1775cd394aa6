import {Args} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class ConfigGet extends SvcCommand<typeof ConfigGet> {
  static override summary = 'Show a setting (or every setting) in force for the profile in use.'
  static override description = 'With a key, prints its value alone; without, a table of every setting, its value and where it comes from (the profile, every profile, the default).'
  static override examples = ['<%= config.bin %> config get', '<%= config.bin %> config get invoice.prefix']
  static override args = {key: Args.string({description: 'Setting: invoice.prefix, invoice.width or invoice.numbering.'})}

  async run(): Promise<void> {
    const {configGet} = await import('../../lib/config/settings-cli.js')
    const {namedProfile} = await import('../../lib/config/resolve.js')
    await configGet({configDir: this.ctx.configDir, named: namedProfile(this.ctx.flags, this.ctx.env), io: this.ctx.io}, this.args.key)
  }
}
