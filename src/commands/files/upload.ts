import {Args} from '@oclif/core'

import {SvcCommand} from '../../lib/command.js'

export default class FilesUpload extends SvcCommand<typeof FilesUpload> {
  static override summary = 'Upload an image and print its file_url (for an invoice cover).'
  static override description =
    'PNG, JPEG or WebP, at most 5 MB, checked locally by extension and content first. Asks the service for an upload URL, ' +
    'PUTs the bytes there, and prints the file_url to use as --cover (or cover_image_url).'
  static override examples = ['<%= config.bin %> files upload ./logo.png', '<%= config.bin %> files upload ./logo.png --json']
  static override args = {path: Args.string({description: 'The image file.', required: true})}

  async run(): Promise<void> {
    const {filesUpload} = await import('../../lib/files/cli.js')
    await filesUpload(this.ctx, this.args.path)
  }
}
