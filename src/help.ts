/**
 * oclif's help, with what `svc --help` lacked: a few examples of the whole tool on the root page
 * (each command's own examples are on its page). Loaded only when help is shown.
 */
import {Help} from '@oclif/core/help'

const ROOT_EXAMPLES = [
  ['Tour the whole flow against a built-in sandbox (no key, no network)', 'svc sandbox walkthrough'],
  ['Run a local sandbox and collect from a test number', 'svc sandbox serve', 'svc --profile local pay create --amount 5000 --phone 670000001 --watch'],
  ['Invoice a customer and send it by email', 'svc invoice create --customer-name "Awa Bakery" --due-date 2026-12-31 --item "Bread:500:3" --email awa@example.com --publish --channel EMAIL'],
  ['Forward signed events to your app', 'svc webhooks listen --forward-to http://localhost:3000/webhooks'],
  ['Use your own key', 'svc login'],
]

export default class SvcHelp extends Help {
  protected override async showRootHelp(): Promise<void> {
    await super.showRootHelp()
    const body = ROOT_EXAMPLES.map(([what, ...commands]) => [what, ...commands.map((c) => `  $ ${c}`)].join('\n')).join('\n\n')
    this.log(this.section('EXAMPLES', body))
    this.log('')
  }
}
