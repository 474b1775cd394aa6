/** `--csv-sep`, shared by every command with `--csv` (the lists and the reports). */
import {Flags} from '@oclif/core'

export const csvSepFlag = Flags.string({
  description: 'With --csv: the separator, "," ";" or tab (default ","; in French ";" and a UTF-8 BOM, as French Excel opens it).',
  dependsOn: ['csv'],
})
