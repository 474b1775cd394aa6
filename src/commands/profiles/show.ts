import {Args} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'
import {showProfile} from '../../lib/config/profiles.js'
import {renderProfileDetail} from '../../lib/config/render.js'

export default class ProfilesShow extends SvcCommand<typeof ProfilesShow> {
  static override summary = 'Show one profile (the current one by default), secrets masked.'
  static override examples = ['<%= config.bin %> profiles show', '<%= config.bin %> profiles show ci --json']
  static override args = {name: Args.string({description: 'Profile name (default: current).'})}

  async run(): Promise<void> {
    const view = showProfile(this.ctx.configDir, this.args.name ?? this.flags.profile)
    await this.ctx.io.result(view, () => this.ctx.io.out(renderProfileDetail(view)))
  }
}
