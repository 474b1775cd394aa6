/**
 * Issue 19, point 6: a wait of a second or more is never silent. The client tells its caller
 * before it paces itself under the rate limit or waits to retry; the CLI says it on stderr (or in
 * the spinner on a terminal).
 */
import {PassThrough} from 'node:stream'
import {afterEach, describe, expect, it} from 'vitest'

import {createClient} from '../../../src/lib/api/index.js'
import {IO} from '../../../src/lib/io/terminal.js'
import {fakeClock, startServer, type TestServer} from './helpers.js'

let server: TestServer | undefined
afterEach(async () => server?.close())

describe('waits are announced', () => {
  it('pacing under the rate limit: told before the wait, with its length', async () => {
    server = await startServer((_req, res) => res.writeHead(200, {'content-type': 'application/json'}).end('{"data":[]}'))
    const clock = fakeClock()
    const waits: Array<{ms: number; reason: string}> = []
    const client = createClient({baseUrl: server.url, apiKey: 'svc_sk_test_0123456789', userAgent: 't', ratePerMinute: 1, clock, onWait: (w) => waits.push(w)})
    await client.request({method: 'GET', path: '/v1/payments'})
    expect(waits).toEqual([])
    await client.request({method: 'GET', path: '/v1/payments'})
    expect(waits).toEqual([{ms: 60_000, reason: 'pacing'}])
    await client.close()
  })

  it("a 429's Retry-After: told before the retry", async () => {
    server = await startServer((_req, res, _r, index) => {
      if (index === 0) res.writeHead(429, {'retry-after': '3', 'content-type': 'application/json'}).end('{"code":"rate_limited","message":"slow down"}')
      else res.writeHead(200, {'content-type': 'application/json'}).end('{"data":[]}')
    })
    const clock = fakeClock()
    const waits: Array<{ms: number; reason: string}> = []
    const client = createClient({baseUrl: server.url, apiKey: 'svc_sk_test_0123456789', userAgent: 't', ratePerMinute: 0, clock, onWait: (w) => waits.push(w)})
    await client.request({method: 'GET', path: '/v1/payments'})
    expect(waits.filter((w) => w.reason === 'retry').map((w) => w.ms)).toEqual([3000])
    await client.close()
  })

  it('io.status: a line on stderr when no spinner runs (not a terminal)', () => {
    const stdout = new PassThrough()
    const stderr = new PassThrough()
    let err = ''
    stderr.on('data', (d) => (err += d))
    const io = new IO({stdin: new PassThrough(), stdout, stderr}, {interactive: false, json: false, color: false})
    io.status('Rate limit: waiting 53 s')
    expect(err).toBe('Rate limit: waiting 53 s\n')
  })
})
