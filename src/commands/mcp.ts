import {Flags} from '@oclif/core'

import {SvcCommand} from '../lib/command.js'

export default class Mcp extends SvcCommand<typeof Mcp> {
  static override summary = 'Serve svc to an AI assistant: a Model Context Protocol server on stdio.'
  static override description =
    'An MCP client (Claude Desktop, an IDE, an agent) starts this command and talks to it over stdin/stdout. Its tools ' +
    '(payments_create|get|list|wait, invoices_create|get|list|publish|send|cancel|pdf, reports_receivables|collections, ' +
    'sandbox_test_numbers) use the profile and key chosen as for any command (--api-key, SVC_API_KEY, --profile, the current ' +
    'profile) and the same checks as the CLI: bad input is a tool error naming the argument, and nothing is sent.\n\n' +
    'On a LIVE key, tools that move money or tell customers are refused unless --allow-live-writes is given (there is no ' +
    'confirmation prompt: your MCP client asks you before each call, if it is set to). --read-only offers only the tools ' +
    'that change nothing. Logs go to stderr; stdout is the protocol. See docs/mcp.md.'
  static override examples = [
    '<%= config.bin %> mcp --profile local',
    '<%= config.bin %> mcp --read-only',
    'SVC_API_KEY=svc_sk_live_… <%= config.bin %> mcp --allow-live-writes',
  ]
  static override flags = {
    'read-only': Flags.boolean({description: 'Offer only the tools that change nothing (reads, reports, test numbers).'}),
    'allow-live-writes': Flags.boolean({description: 'On a LIVE key, allow the tools that move money or tell customers.'}),
  }

  async run(): Promise<void> {
    const {serveMcp} = await import('../lib/mcp/server.js')
    await serveMcp(this.ctx, {readOnly: this.flags['read-only'], allowLiveWrites: this.flags['allow-live-writes']})
  }
}
