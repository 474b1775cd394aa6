// The English catalogue, assembled from one section per domain. A key is `section.name`; a test
// checks that no key is defined twice.
import {api} from './api.js'
import {core} from './core.js'
import {domain} from './domain.js'
import {files} from './files.js'
import {exec} from './exec.js'
import {fixtures} from './fixtures.js'
import {invoice} from './invoice.js'
import {local} from './local.js'
import {mcp} from './mcp.js'
import {pay} from './pay.js'
import {raw} from './raw.js'
import {report} from './report.js'
import {walk} from './walk.js'
import {webhooks} from './webhooks.js'
import {hooktest} from './hooktest.js'

export const sections = {core, api, domain, pay, invoice, files, webhooks, local, raw, walk, report, hooktest, mcp, fixtures, exec}

type Merged<T> = (T extends unknown ? (part: T) => void : never) extends (part: infer I) => void ? I : never

/** One object of all sections. Object.assign, not `{...a, ...b}`: spread syntax copied these ~700 keys in ~4 ms, on every start-up. */
export function merge<T extends object[]>(...parts: T): Merged<T[number]> {
  return Object.assign({}, ...parts) as Merged<T[number]>
}

export const en = merge(core, api, domain, pay, invoice, files, webhooks, local, raw, walk, report, hooktest, mcp, fixtures, exec)
