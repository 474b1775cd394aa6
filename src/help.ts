/**
 * oclif's help, with what `svc --help` lacked: a few examples of the whole tool on the root page
 * (each command's own examples are on its page). Loaded only when help is shown. Its sentences
 * come from the catalogue (core.help.*); help runs before a command sets the language, so they
 * print in English, like the rest of oclif's help (docs/languages.md).
 */
import type {Command} from '@oclif/core'
import {Help} from '@oclif/core/help'

import {t, type MessageKey} from './lib/i18n/index.js'

const ROOT_EXAMPLES: Array<[MessageKey, ...string[]]> = [
  ['core.help.tour', 'svc sandbox walkthrough'],
  ['core.help.local', 'svc sandbox serve', 'svc --profile local pay create --amount 5000 --phone 670000001 --watch'],
  ['core.help.invoice', 'svc invoice create --customer-name "Awa Bakery" --due-date 2026-12-31 --item "Bread:500:3" --email awa@example.com --publish --channel EMAIL'],
  ['core.help.forward', 'svc webhooks listen --forward-to http://localhost:3000/webhooks'],
  ['core.help.login', 'svc login'],
]

export default class SvcHelp extends Help {
  /**
   * oclif joins a flag to its exclusive partners once; a flag whose partner is already in another
   * group (invoice list: --customer with --page, which is with --all) leaves `[--customer | ]`.
   * The usage drops that residue (`[--customer |  | ]` when the partner is in two groups:
   * --page and --offset).
   */
  override formatCommand(command: Command.Loadable): string {
    return super.formatCommand(command).replaceAll(/ (?:\|\s*)+([\])])/g, '$1')
  }

  protected override async showRootHelp(): Promise<void> {
    await super.showRootHelp()
    const body = ROOT_EXAMPLES.map(([what, ...commands]) => [t(what), ...commands.map((c) => `  $ ${c}`)].join('\n')).join('\n\n')
    this.log(this.section(t('core.help.examples'), body))
    this.log('')
  }
}
