import {SvcCommand} from '../lib/command.js'
import {t} from '../lib/i18n/index.js'

export default class Logout extends SvcCommand<typeof Logout> {
  static override summary = "Remove the current profile's key (or the one named by --profile)."
  static override examples = ['<%= config.bin %> logout', '<%= config.bin %> logout --profile ci']

  async run(): Promise<void> {
    const {logoutProfile} = await import('../lib/config/profiles.js')
    const {selectedProfileName} = await import('../lib/config/resolve.js')
    const name = selectedProfileName({profile: this.flags.profile}, this.ctx.env, this.ctx.config())
    if (!name) {
      this.ctx.io.err(t('core.profile.nothingToLogOut'))
      return
    }
    await logoutProfile(this.ctx.configDir, name, this.ctx.clock)
    await this.ctx.io.result({profile: name, logged_out: true}, () => this.ctx.io.err(t('core.profile.loggedOut', {name})))
  }
}
