// Le catalogue français, assemblé section par section comme l’anglais (en/index.ts). Chaque
// section est typée sur sa section anglaise (ni clé manquante, ni clé en trop), et l’ensemble sur
// `Catalogue` : une traduction manquante fait échouer la vérification de types.
// Chargé paresseusement (SvcCommand.init) : une exécution en anglais ne le lit jamais.
import {merge} from '../en/index.js'
import type {Catalogue} from '../index.js'
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

export const fr: Catalogue = merge(core, api, domain, pay, invoice, files, webhooks, local, raw, walk, report, hooktest, mcp, fixtures, exec)
