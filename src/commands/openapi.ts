import {Flags} from '@oclif/core'

import {SvcCommand} from '../lib/command.js'

export default class OpenApi extends SvcCommand<typeof OpenApi> {
  static override summary = "Print the service's OpenAPI description, or a table of its operations."
  static override examples = ['<%= config.bin %> openapi > openapi.json', '<%= config.bin %> openapi --operations']
  static override flags = {
    operations: Flags.boolean({description: 'A table of operations (method, path, operationId, summary).'}),
  }

  async run(): Promise<void> {
    const {showOpenApi} = await import('../lib/raw/openapi.js')
    await showOpenApi(this.ctx, {operations: this.flags.operations})
  }
}
