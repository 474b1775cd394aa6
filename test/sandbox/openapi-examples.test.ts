/**
 * Every operation and every event in `/v1/openapi.json` carries examples (request body, each
 * response with a body, each webhook payload), and each validates against its own schema (Ajv,
 * JSON Schema 2020-12, refs resolved by the OpenAPI validator): what mock servers and docs
 * generators show is real data. An operation or event added without examples fails here.
 */
import {Ajv2020} from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import {describe, expect} from 'vitest'

import {withHarness} from './helpers.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void

type Json = Record<string, any>

interface Media {
  where: string
  schema: Json
  examples?: Record<string, {value: unknown}>
}

/** Every JSON media object of the document's operations and webhooks, named by where it is. */
function mediaObjects(document: Json): Media[] {
  const out: Media[] = []
  const sections: Array<[string, Json]> = [
    ['paths', document.paths],
    ['webhooks', document.webhooks],
  ]
  for (const [section, items] of sections) {
    for (const [name, item] of Object.entries<Json>(items)) {
      for (const [method, op] of Object.entries<Json>(item)) {
        const body = op.requestBody?.content?.['application/json']
        if (body) out.push({where: `${section} ${method} ${name} request`, ...body})
        for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
          const media = response.content?.['application/json']
          if (media) out.push({where: `${section} ${method} ${name} ${status}`, ...media})
        }
      }
    }
  }
  return out
}

function problems(media: Media[]): string[] {
  const ajv = new Ajv2020({strict: false, allErrors: true})
  addFormats(ajv)
  const found: string[] = []
  for (const {where, schema, examples} of media) {
    const entries = Object.entries(examples ?? {})
    if (entries.length === 0) found.push(`${where}: no example`)
    const validate = ajv.compile(schema)
    for (const [name, example] of entries) if (!validate(example.value)) found.push(`${where} example ${name}: ${ajv.errorsText(validate.errors)}`)
  }
  return found
}

/** The file's harness, and the media objects of the document it publishes. */
const it = withHarness({rateLimit: 100}).extend<{media: Media[]}>({
  media: [async ({h}, use) => use(mediaObjects(h.spec.document)), {scope: 'file'}],
})

describe('examples in /v1/openapi.json', () => {
  it('every operation and event has examples, each valid against its own schema', ({h, media}) => {
    const operations = Object.values<Json>(h.spec.document.paths).flatMap((item) => Object.keys(item)).length
    expect(operations).toBeGreaterThanOrEqual(12)
    expect(media.filter((m) => m.where.startsWith('webhooks')).map((m) => m.where)).toEqual([
      'webhooks post payment.success request',
      'webhooks post payment.failed request',
    ])
    expect(media.length).toBeGreaterThan(operations * 3)
    expect(problems(media)).toEqual([])
  })

  it('the examples show the sandbox answer for the same request', async ({h}) => {
    const invoice = h.spec.document.paths['/v1/invoices'].post
    const request = invoice.requestBody.content['application/json'].examples.bakery.value
    const created = await h.api('POST', '/v1/invoices', {body: request})
    expect(created.status).toBe(201)
    const example = invoice.responses['201'].content['application/json'].examples.draft.value
    const comparable = (v: Json) => ({...v, id: undefined, checkout_url: undefined, created_at: undefined, updated_at: undefined})
    expect(comparable(created.body)).toEqual(comparable(example))
    const refused = await h.api('POST', '/v1/payments', {body: {amount: 0, phone_number: '670000001', operator: 'MTN'}})
    expect(refused.body).toEqual(h.spec.document.paths['/v1/payments'].post.responses['400'].content['application/json'].examples.validation_error.value)
  })

  it('control: a missing or invalid example is reported', ({media}) => {
    const [first] = media
    expect(problems([{...first, examples: undefined}])).toEqual([`${first.where}: no example`])
    expect(problems([{...first, examples: {bad: {value: {nothing: true}}}}])[0]).toMatch(/example bad/)
  })
})
