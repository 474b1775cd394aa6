/**
 * The tools `svc mcp` offers: for each, the JSON Schema the assistant reads, the annotations,
 * and `prepare`, which reads and checks the arguments with the CLI's own rules (nothing is sent
 * when they are wrong) and returns what it would do: the sentence that needs a LIVE key's
 * permission, if any, and `execute`, the same flows `svc pay …`, `svc invoice …` and
 * `svc report …` use.
 *
 * Descriptions and schemas are English whatever the language, like `--help` (README
 * "Languages"): the list of tools is machine input for the assistant, read once per session.
 * The summaries and errors a person may be shown come from the catalogue, in the CLI's language.
 */
import type {ToolDefinition} from './tool-kit.js'
import {invoicesCancel, invoicesCreate, invoicesGet, invoicesList, invoicesPdf, invoicesPublish, invoicesSend} from './invoice-tools.js'
import {paymentsCreate, paymentsGet, paymentsList, paymentsWait, sandboxTestNumbers} from './payment-tools.js'
import {reportsCollections, reportsReceivables} from './report-tools.js'

export {type ToolOutcome, type CallSession, type Plan, type Annotations, type ToolDefinition} from './tool-kit.js'

/** Every tool, in the order they are listed. */
export const TOOLS: readonly ToolDefinition[] = [
  paymentsCreate,
  paymentsGet,
  paymentsList,
  paymentsWait,
  invoicesCreate,
  invoicesGet,
  invoicesList,
  invoicesPublish,
  invoicesSend,
  invoicesCancel,
  invoicesPdf,
  reportsReceivables,
  reportsCollections,
  sandboxTestNumbers,
]
