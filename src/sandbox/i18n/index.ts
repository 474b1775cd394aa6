/**
 * The local sandbox's own sentences: API and admin errors, deliveries, the PDF and the hosted
 * checkout page, in English and French. The API speaks English whatever language the process
 * that started the sandbox runs in (a `message` is read by clients of every language, like the
 * CLI's --json); customer-facing surfaces (checkout, PDF, outbox) pass their locale explicitly.
 * French is registered by `startSandbox` (`registerSandboxFrench`), not on import.
 */
import {Catalogue, type Locale, type Params} from '../../contract/catalogue.js'
import {sandboxInvoices} from './en/sandbox-invoices.js'
import {sandbox} from './en/sandbox.js'
import {sandboxInvoices as frInvoices} from './fr/sandbox-invoices.js'
import {sandbox as frSandbox} from './fr/sandbox.js'
// The request journal and the web inspector.
import {sandboxInspector} from './en/sandbox-inspector.js'
import {sandboxInspector as frInspector} from './fr/sandbox-inspector.js'

export type {Locale, Params} from '../../contract/catalogue.js'

export const sections = {sandbox, sandboxInvoices, sandboxInspector}
export const frSections = {sandbox: frSandbox, sandboxInvoices: frInvoices, sandboxInspector: frInspector}
export const en = Object.assign({}, sandbox, sandboxInvoices, sandboxInspector)
export type MessageKey = keyof typeof en

const catalogue = new Catalogue<MessageKey>(en)

/** Both languages: a sandbox serves customers of either whatever the process's own language. */
export function registerSandboxFrench(): void {
  if (!catalogue.has('fr')) catalogue.register('fr', Object.assign({}, frSandbox, frInvoices, frInspector))
}

export function t(key: MessageKey, params?: Params, locale: Locale = 'en'): string {
  return catalogue.t(key, params, locale)
}

/** The web inspector's sentences in one language (its script words its pages with them). */
export function inspectorMessages(locale: Locale): Record<string, string> {
  const source: Record<string, string> = locale === 'fr' ? frInspector : sandboxInspector
  return Object.fromEntries(Object.entries(source).filter(([key]) => key.startsWith('inspector.')))
}
