// Shared by the sandbox tests: a sandbox from the one starter (test/helpers/sandbox.ts), called
// over real HTTP, every /v1 response checked against the OpenAPI document it publishes.
import {test as base} from 'vitest'

import {OpenApiResponses} from '../helpers/openapi-response.js'
import {startTestSandbox, type Sandbox, type StartOptions} from '../helpers/sandbox.js'

export interface Reply {
  status: number
  headers: Headers
  body: any
}

export interface Harness {
  sb: Sandbox
  spec: OpenApiResponses
  /** A public-API call; the response is checked against the document (unless `unchecked`). `key: null` sends none. */
  api(method: string, path: string, options?: {key?: string | null; body?: unknown; rawBody?: string; unchecked?: boolean}): Promise<Reply>
  /** An admin call (Bearer admin token). */
  admin(method: string, path: string, body?: unknown, token?: string): Promise<Reply>
  createPayment(body: Record<string, unknown>, key?: string): Promise<Reply>
  close(): Promise<void>
}

export async function harness(options: StartOptions = {}): Promise<Harness> {
  const {sb} = await startTestSandbox(options)
  const spec = await OpenApiResponses.load(sb.url)
  const call = async (url: string, init: RequestInit): Promise<Reply> => {
    const response = await fetch(url, init)
    const text = await response.text()
    let body: any = text
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text)
    return {status: response.status, headers: response.headers, body}
  }
  const h: Harness = {
    sb,
    spec,
    async api(method, path, options = {}) {
      const headers: Record<string, string> = {}
      const key = options.key === undefined ? sb.keys.sandbox : options.key
      if (key !== null) headers['x-api-key'] = key
      let body: string | undefined = options.rawBody
      if (options.body !== undefined) body = JSON.stringify(options.body)
      if (body !== undefined) headers['content-type'] = 'application/json'
      const reply = await call(`${sb.url}${path}`, {method, headers, body})
      // `unchecked`: a path deliberately outside the document (admin paths, unknown routes).
      if (!options.unchecked) spec.check(method, path, reply.status, reply.body, reply.headers)
      return reply
    },
    admin(method, path, body, token = sb.adminToken) {
      const headers: Record<string, string> = {authorization: `Bearer ${token}`}
      if (body !== undefined) headers['content-type'] = 'application/json'
      return call(`${sb.url}${path}`, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)})
    },
    createPayment(body, key) {
      return h.api('POST', '/v1/payments', {key, body})
    },
    close: () => sb.close(),
  }
  return h
}

/**
 * The harness as a vitest fixture: `const it = withHarness({...})` at the top of a file, then
 * `it('…', async ({h}) => …)`. One harness per file, started by the first test that asks for it
 * (a test without `h` starts none) and closed when the file is done.
 */
export function withHarness(options: StartOptions = {}) {
  return base.extend<{h: Harness}>({
    h: [
      // eslint-disable-next-line no-empty-pattern
      async ({}, use) => {
        const h = await harness(options)
        try {
          await use(h)
        } finally {
          await h.close()
        }
      },
      {scope: 'file'},
    ],
  })
}
