import {Flags} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxBusinessSet extends SvcCommand<typeof SandboxBusinessSet> {
  static override summary = "Set the language the business's customers read (invoice PDFs, email and WhatsApp texts)."
  static override description =
    'Checkout pages follow the customer\'s browser (Accept-Language) and their own English/Français switch; ' +
    'this language is their fallback. Not the language of svc itself: that is --lang, SVC_LANG or LANG.'
  static override examples = ['<%= config.bin %> sandbox business set --language fr']
  static override flags = {
    language: Flags.option({options: ['en', 'fr'] as const, required: true, description: "The customers' language."})(),
  }

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox/dashboard.js')
    await dashboard.businessSet(this.ctx, this.flags)
  }
}
