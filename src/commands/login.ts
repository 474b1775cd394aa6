import {Flags} from '@oclif/core'

import {SvcCommand} from '../lib/command.js'
import {resolveBaseUrl} from '../lib/config/resolve.js'
import {t} from '../lib/i18n/index.js'

export default class Login extends SvcCommand<typeof Login> {
  static override summary = 'Save an API key in a profile, after checking it with the service.'
  static override description =
    'On a terminal the key is asked for as a password. Elsewhere pipe it in with --api-key-stdin. ' +
    'Keys start with svc_sk_test_ (sandbox) or svc_sk_live_ (live); the environment comes from the prefix.'
  static override examples = [
    '<%= config.bin %> login',
    'printf %s "$SVC_KEY" | <%= config.bin %> login --api-key-stdin --profile ci --base-url https://api.example.com',
    '<%= config.bin %> login --profile shop --lang fr',
  ]
  static override flags = {
    'api-key-stdin': Flags.boolean({description: 'Read the key from standard input.'}),
  }

  async run(): Promise<void> {
    const {obtainKey, checkKey} = await import('../lib/config/login.js')
    const {saveProfile, validateProfileName} = await import('../lib/config/profiles.js')
    const {io} = this.ctx
    const config = this.ctx.config()
    const name = validateProfileName(
      this.flags.profile ??
        (io.interactive && !this.flags['api-key']
          ? await this.ctx.prompter().input(t('core.login.promptProfile'), {default: config.current ?? 'default'})
          : 'default'),
    )
    const key = await obtainKey(this.ctx, {fromStdin: this.flags['api-key-stdin']})
    const baseUrl = resolveBaseUrl({baseUrl: this.flags['base-url']}, this.ctx.env, config.profiles[name])
    const spinner = await io.spinner(t('core.login.checking', {url: baseUrl}))
    let warning: string | undefined
    try {
      warning = (await checkKey(this.ctx, baseUrl, key)).warning
    } finally {
      spinner.stop()
    }
    if (warning) io.warn(warning)
    const view = await saveProfile(this.ctx.configDir, name, {api_key: key, base_url: baseUrl, ...(this.flags.lang ? {lang: this.flags.lang} : {})})
    if (io.json) io.outJson(view)
    else io.err(t('core.profile.saved', {name, environment: view.environment ?? '', key: view.api_key ?? ''}))
  }
}
