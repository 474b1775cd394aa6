import {Args} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class ConfigSet extends SvcCommand<typeof ConfigSet> {
  static override summary = 'Change a setting of the profile in use (or, with no profile, of every profile).'
  static override description = `Settings: invoice.prefix (invoice numbers' prefix, default FAC: FAC-2026-0001), invoice.width (digits of the sequence, 1-9, default 4), invoice.numbering (on or off, default on).`
  static override examples = ['<%= config.bin %> config set invoice.prefix SHOP', '<%= config.bin %> --profile shop config set invoice.width 5']
  static override args = {
    key: Args.string({description: 'Setting: invoice.prefix, invoice.width or invoice.numbering.', required: true}),
    value: Args.string({description: 'Its new value.', required: true}),
  }

  async run(): Promise<void> {
    const {configSet} = await import('../../lib/config/settings-cli.js')
    const {namedProfile} = await import('../../lib/config/resolve.js')
    await configSet({configDir: this.ctx.configDir, named: namedProfile(this.ctx.flags, this.ctx.env), io: this.ctx.io, clock: this.ctx.clock}, this.args.key, this.args.value)
  }
}
