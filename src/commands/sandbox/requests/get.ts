import {Args} from '@oclif/core'

import {SvcCommand} from '../../../lib/command.js'

export default class SandboxRequestsGet extends SvcCommand<typeof SandboxRequestsGet> {
  static override summary = 'One request of the journal whole: headers (without secrets) and bodies.'
  static override examples = ['<%= config.bin %> sandbox requests get req_12', '<%= config.bin %> sandbox requests get req_12 --json']
  static override args = {id: Args.string({description: 'The request id (req_…), from `svc sandbox requests`.', required: true})}

  async run(): Promise<void> {
    const {getRequest} = await import('../../../lib/sandbox-admin/journal.js')
    await getRequest(this.ctx, this.args.id)
  }
}
