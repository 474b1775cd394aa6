import {Flags} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxBusinessSet extends SvcCommand<typeof SandboxBusinessSet> {
  static override summary = "Set the business's name, logo and the language its customers read (invoice PDFs, checkout pages, email and WhatsApp texts)."
  static override description =
    'Checkout pages follow the customer\'s browser (Accept-Language) and their own English/Français switch; ' +
    'this language is their fallback. Not the language of svc itself: that is --lang, SVC_LANG or LANG. ' +
    'The name and logo (PNG or JPEG, at most 1 MB) appear on invoice PDFs and checkout pages; the name also in email and WhatsApp texts.'
  static override examples = [
    '<%= config.bin %> sandbox business set --language fr',
    '<%= config.bin %> sandbox business set --name "Boulangerie Awa" --logo logo.png',
  ]
  static override flags = {
    language: Flags.option({options: ['en', 'fr'] as const, description: "The customers' language."})(),
    name: Flags.string({description: 'The business name customers see (1 to 100 characters).'}),
    logo: Flags.string({description: 'A PNG or JPEG file (at most 1 MB), shown on invoice PDFs and checkout pages.'}),
  }

  async run(): Promise<void> {
    const dashboard = await import('../../../lib/sandbox-admin/dashboard.js')
    await dashboard.businessSet(this.ctx, this.flags)
  }
}
