import {Flags} from '@oclif/core'

import {SvcCommand} from '../lib/command.js'
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
    const {login} = await import('../lib/login/flow.js')
    // The current profile before: every command without --profile uses it, so a change is said.
    const previous = this.ctx.config().current
    const view = await login(this.ctx, {fromStdin: this.flags['api-key-stdin'], baseUrl: this.flags['base-url'], lang: this.flags.lang})
    const {io} = this.ctx
    await io.result(view, () => io.err(t('core.profile.saved', {name: view.name, environment: view.environment ?? '', key: view.api_key ?? ''})))
    if (view.current && previous !== view.name) {
      const values = {name: view.name, environment: view.environment ?? '', previous: previous ?? ''}
      io.err(t(previous ? 'core.login.nowCurrent' : 'core.login.nowCurrentFirst', values))
    }
  }
}
