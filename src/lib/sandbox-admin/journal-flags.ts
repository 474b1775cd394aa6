/** The request journal's filters, shared by `svc sandbox requests` and `svc sandbox logs tail`. */
import {Flags} from '@oclif/core'

export const journalFlags = {
  method: Flags.string({description: 'Only this method (GET, POST, …).'}),
  path: Flags.string({description: 'Only paths starting with this (* matches anything): /v1/payments.'}),
  status: Flags.string({description: 'Only these statuses: a class (2xx, 4xx), a status (429), or several separated by commas.'}),
  since: Flags.string({description: 'Only the requests of the last 30s, 5m, 2h…'}),
  all: Flags.boolean({description: "svc's own requests too (webhooks listen, stand-in commands, the inspector): by default only your app's."}),
}
