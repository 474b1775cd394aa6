import {Args} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'
import {removeProfile} from '../../lib/config/profiles.js'
import {t} from '../../lib/i18n/index.js'

export default class ProfilesRemove extends SvcCommand<typeof ProfilesRemove> {
  static override summary = 'Delete a profile and its key.'
  static override examples = ['<%= config.bin %> profiles remove old-shop']
  static override args = {name: Args.string({description: 'Profile name.', required: true})}

  async run(): Promise<void> {
    await removeProfile(this.ctx.configDir, this.args.name, this.ctx.clock)
    await this.ctx.io.result({removed: this.args.name}, () => this.ctx.io.err(t('core.profile.removed', {name: this.args.name})))
  }
}
