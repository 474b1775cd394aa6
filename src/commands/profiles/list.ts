import {SvcCommand} from '../../lib/command.js'
import {listProfiles} from '../../lib/config/profiles.js'
import {renderProfiles} from '../../lib/config/render.js'
import {t} from '../../lib/i18n/index.js'

export default class ProfilesList extends SvcCommand<typeof ProfilesList> {
  static override summary = 'List saved profiles (keys masked).'
  static override examples = ['<%= config.bin %> profiles list', '<%= config.bin %> profiles list --json']

  async run(): Promise<void> {
    const profiles = listProfiles(this.ctx.configDir)
    const {io} = this.ctx
    await io.result(profiles, async () => {
      if (profiles.length === 0) return io.err(t('core.profile.none'))
      io.out(await renderProfiles(io, profiles))
    })
  }
}
