import {Args} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxFaultsClear extends SvcCommand<typeof SandboxFaultsClear> {
  static override summary = 'Remove one fault by id, or every fault.'
  static override examples = ['<%= config.bin %> sandbox faults clear', '<%= config.bin %> sandbox faults clear flt_1']
  static override args = {id: Args.string({description: 'The fault id (flt_…); without it, every fault.'})}

  async run(): Promise<void> {
    const scenarios = await import('../../../lib/sandbox-admin/scenarios.js')
    await scenarios.faultsClear(this.ctx, this.args.id)
  }
}
