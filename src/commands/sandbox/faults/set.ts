import {Flags} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxFaultsSet extends SvcCommand<typeof SandboxFaultsSet> {
  static override summary = 'Inject faults into the sandbox: on its API (latency, errors, resets) or on webhook deliveries.'
  static override description =
    "Drawn at --rate from the sandbox's seeded generator (reproducible with `serve --seed`). Every injection is logged by the sandbox as \"injected fault …\". The admin surface is never faulted."
  static override examples = [
    '<%= config.bin %> sandbox faults set --route "POST /v1/payments" --error 503',
    '<%= config.bin %> sandbox faults set --latency 2s --rate 0.2 --for 5m',
    '<%= config.bin %> sandbox faults set --deliveries duplicate --rate 0.5',
    '<%= config.bin %> sandbox faults set --deliveries delay --delay 30s',
  ]
  static override flags = {
    route: Flags.string({description: 'Only this route, "METHOD /path" (default: every /v1 route).'}),
    latency: Flags.string({description: 'Answer this much later (250ms, 2s; at most 2m).'}),
    error: Flags.option({
      options: ['500', '502', '503', '429', 'reset', 'html'] as const,
      description: 'Answer with this status, reset the connection, or an HTML 502 page from a gateway.',
    })(),
    deliveries: Flags.option({
      options: ['duplicate', 'reorder', 'delay', 'drop'] as const,
      description: 'A fault on webhook deliveries instead: sent twice (same webhook-id), overtaken, late, or lost.',
    })(),
    rate: Flags.string({description: 'Share of requests or deliveries hit, 0 to 1 (default 1).'}),
    delay: Flags.string({description: 'With --deliveries delay|reorder: how long a delivery is held (default 30s|5s).'}),
    for: Flags.string({description: 'How long the fault lasts, on the sandbox clock (default: until cleared).'}),
  }

  async run(): Promise<void> {
    const scenarios = await import('../../../lib/sandbox-admin/scenarios.js')
    await scenarios.faultsSet(this.ctx, this.flags)
  }
}
