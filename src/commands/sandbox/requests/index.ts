import {Flags} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'
import {journalFlags} from '../../../lib/sandbox-admin/journal-flags.js'


export default class SandboxRequests extends SvcCommand<typeof SandboxRequests> {
  static override summary = 'The requests the local sandbox answered, newest first (the request journal).'
  static override description =
    'The sandbox keeps the last 10,000 requests: time, method, path, status, duration, environment, the key masked, bodies up to 64 KiB, headers without secrets. ' +
    "Your app's requests; svc's own (webhooks listen, the svc sandbox commands, the inspector) with --all. With --json, a bare array to assert on in a test or CI step."
  static override examples = [
    '<%= config.bin %> sandbox requests',
    '<%= config.bin %> sandbox requests --method POST --path /v1/payments --status 2xx --since 5m --json',
    '<%= config.bin %> sandbox requests --all --since 1m',
  ]
  static override flags = {
    ...journalFlags,
    limit: Flags.integer({description: 'How many at most (1–10000).', default: 100, min: 1, max: 10_000, aliases: ['page-size']}),
  }

  async run(): Promise<void> {
    const {listRequests} = await import('../../../lib/sandbox-admin/journal.js')
    await listRequests(this.ctx, this.flags)
  }
}
