// The description taken at its word, as a schema-based fuzzer takes it (test/helpers/description-fuzz.ts):
// requests built from `/v1/openapi.json` alone, judged by Ajv against the document's own schemas,
// sent to a sandbox. A request the document allows is never refused (400); one it forbids is never
// accepted (2xx). The rules no schema can hold are in the operation's description, and the test
// reads them there before it applies them: a rule the server enforces that the document does not
// state shows as a refusal of an allowed request.
import fc from 'fast-check'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {judge, operations, requests, violations, type DocRequest, type Operation} from '../helpers/description-fuzz.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

const COUNT = Number(process.env.DESCRIPTION_FUZZ_COUNT ?? 1200)
const SEED = Number(process.env.FUZZ_SEED ?? 44)

type Json = Record<string, any>

/** A rule said only in words: the sentence the description must carry, and what it forbids. */
interface WordRule {
  operationId: string
  said: RegExp
  breaks(request: DocRequest): string | undefined
}

/** round(x) with halves away from zero, as the Invoice schema's discount_amount says. */
const roundHalfAway = (x: number) => Math.sign(x) * Math.round(Math.abs(x))

const WORD_RULES: WordRule[] = [
  {
    operationId: 'createInvoice',
    said: /subtotal[^.]*at most 1 000 000 000 000 000 XAF/,
    breaks: ({body}) => {
      const items = (body as Json | undefined)?.items
      if (!Array.isArray(items)) return undefined
      const subtotal = items.reduce((sum: bigint, item: Json) => sum + BigInt(item.price) * BigInt(item.quantity), 0n)
      return subtotal > 10n ** 15n ? `subtotal ${subtotal} over 10^15` : undefined
    },
  },
  {
    operationId: 'createInvoice',
    said: /total at least 100 XAF/,
    breaks: ({body}) => {
      const b = body as Json | undefined
      if (!Array.isArray(b?.items)) return undefined
      const subtotal = b.items.reduce((sum: number, item: Json) => sum + item.price * item.quantity, 0)
      const total = subtotal - roundHalfAway((subtotal * (b.discount_percent ?? 0)) / 100)
      return total < 100 ? `total ${total} under 100` : undefined
    },
  },
  {
    operationId: 'createInvoice',
    said: /cover_image_url[^.]*file_url returned by POST \/v1\/files\/upload-url/,
    breaks: ({body}) => {
      const cover = (body as Json | undefined)?.cover_image_url
      return cover !== undefined && cover !== uploaded.fileUrl ? 'cover_image_url names no uploaded file' : undefined
    },
  },
]

/** The cover the fuzzer uploaded first, as the description says to (its file_url). */
const uploaded = {fileUrl: ''}
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')

describe('the description, taken at its word by a schema-based fuzzer', () => {
  let sandbox: TestSandbox
  let doc: Json
  const ids: Record<string, string> = {}
  beforeAll(async () => {
    sandbox = await startTestSandbox({rateLimit: 0})
    const {sb} = sandbox
    doc = (await (await fetch(`${sb.url}/v1/openapi.json`)).json()) as Json
    // Objects to aim at: a payment, and an invoice published with both recipients (send, PDF, cancel).
    const api = async (method: string, path: string, body?: unknown): Promise<Json> =>
      (await (await fetch(`${sb.url}${path}`, {method, headers: {'x-api-key': sb.keys.sandbox, 'content-type': 'application/json'}, body: body === undefined ? undefined : JSON.stringify(body)})).json()) as Json
    ids.paymentId = (await api('POST', '/v1/payments', {amount: 5000, phone_number: '670000001', operator: 'MTN'})).id
    const invoice = await api('POST', '/v1/invoices', {customer_name: 'Awa', customer_email: 'awa@example.com', customer_phone: '+237670000001', due_date: '2099-12-31', items: [{name: 'Bread', price: 500, quantity: 3}]})
    await api('POST', `/v1/invoices/${invoice.id}/publish`)
    ids.invoiceId = invoice.id
    // Cancel has one of its own: the others stay payable.
    ids.cancelInvoiceId = (await api('POST', '/v1/invoices', {customer_name: 'Ben', due_date: '2099-12-31', items: [{name: 'Cake', price: 2500, quantity: 1}]})).id
    const slot = await api('POST', '/v1/files/upload-url', {filename: 'cover.png', content_type: 'image/png', size: PNG.length})
    const put = await fetch(slot.upload_url, {method: 'PUT', headers: slot.headers, body: PNG})
    expect(put.status).toBe(200)
    uploaded.fileUrl = slot.file_url
  })
  afterAll(() => sandbox?.sb.close())

  it('states each rule no schema can hold in its operation description', () => {
    const byId = new Map(operations(doc).map((op) => [op.operationId, op]))
    for (const rule of WORD_RULES) expect(byId.get(rule.operationId)?.description, rule.said.source).toMatch(rule.said)
  })

  it(`${COUNT} requests: none the document allows is refused, none it forbids is accepted`, {timeout: 300_000}, async () => {
    const {sb} = sandbox
    const check = judge(doc)
    const ops = operations(doc).filter((op: Operation) => op.operationId !== 'getOpenApi')
    const known = {cover_image_url: fc.constant(uploaded.fileUrl)}
    // Each operation's requests built once (its patterns' regular expressions made into generators
    // once), not again for every request drawn: the same draws (compared whole for this seed), for
    // ~1 s less CPU.
    const byOp = new Map(ops.map((op) => [op, requests(doc, op, (name) => (op.operationId === 'cancelInvoice' ? ids.cancelInvoiceId : ids[name]) ?? 'missing', known)]))
    const arbitrary = fc.constantFrom(...ops).chain((op) => byOp.get(op)!)
    const sample = fc.sample(arbitrary, {numRuns: COUNT, seed: SEED})
    const disagreements: string[] = []
    const tally = {allowed: 0, forbidden: 0}
    const byOperation: Record<string, {allowed: number; forbidden: number; answers: Record<number, number>}> = {}
    for (const draft of sample) {
      const request: DocRequest = {...draft, violations: violations(check, draft)}
      // The words apply to a request the schemas allow (they speak of well-formed items).
      const words = (request.violations.length > 0 ? [] : WORD_RULES.filter((r) => r.operationId === request.operation.operationId))
        .map((r) => r.breaks(request))
        .filter((v): v is string => v !== undefined)
      const allowed = request.violations.length === 0 && words.length === 0
      tally[allowed ? 'allowed' : 'forbidden']++
      const seen = (byOperation[request.operation.operationId] ??= {allowed: 0, forbidden: 0, answers: {}})
      seen[allowed ? 'allowed' : 'forbidden']++
      let path = request.operation.path
      for (const [name, value] of Object.entries(request.path)) path = path.replace(`{${name}}`, encodeURIComponent(value))
      const query = new URLSearchParams(Object.entries(request.query).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]))
      const headers: Record<string, string> = {'x-api-key': sb.keys.sandbox, ...request.headers}
      // Idempotency keys are fresh each time (a reused one is 422 by design, not by the body).
      if ('Idempotency-Key' in headers && request.violations.every((v) => !v.includes('Idempotency-Key'))) headers['Idempotency-Key'] = `${headers['Idempotency-Key']}-${crypto.randomUUID()}`.slice(-255)
      if (request.body !== undefined) headers['content-type'] = 'application/json'
      const url = `${sb.url}${path}${query.size > 0 ? `?${query}` : ''}`
      const response = await fetch(url, {method: request.operation.method, headers, body: request.body === undefined ? undefined : JSON.stringify(request.body)})
      const text = await response.text()
      seen.answers[response.status] = (seen.answers[response.status] ?? 0) + 1
      const shown = () => `${request.operation.method} ${path}?${query} ${JSON.stringify(request.headers)} ${JSON.stringify(request.body)?.slice(0, 300)} → ${response.status} ${text.slice(0, 300)}`
      if (response.status >= 500) disagreements.push(`5xx: ${shown()}`)
      else if (allowed && response.status === 400) disagreements.push(`allowed, refused: ${shown()}`)
      else if (!allowed && response.status < 300) disagreements.push(`forbidden (${[...request.violations, ...words].join('; ')}), accepted: ${shown()}`)
    }
    if (process.env.DESCRIPTION_FUZZ_TALLY) console.log(JSON.stringify(byOperation))
    expect(disagreements.slice(0, 200).map((d) => d.slice(0, 420))).toEqual([])
    // Both sides are exercised, on every operation.
    expect(tally.allowed).toBeGreaterThan(COUNT / 3)
    expect(tally.forbidden).toBeGreaterThan(COUNT / 10)
    for (const op of ops) expect(byOperation[op.operationId]?.allowed, op.operationId).toBeGreaterThan(COUNT / ops.length / 5)
  })
})
