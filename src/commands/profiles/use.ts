import {Args} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'
import {useProfile} from '../../lib/config/profiles.js'
import {t} from '../../lib/i18n/index.js'

export default class ProfilesUse extends SvcCommand<typeof ProfilesUse> {
  static override summary = 'Make a profile the current one.'
  static override examples = ['<%= config.bin %> profiles use shop']
  static override args = {name: Args.string({description: 'Profile name.', required: true})}

  async run(): Promise<void> {
    await useProfile(this.ctx.configDir, this.args.name, this.ctx.clock)
    await this.ctx.io.result({current: this.args.name}, () => this.ctx.io.err(t('core.profile.used', {name: this.args.name})))
  }
}
