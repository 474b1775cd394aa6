/**
 * A kept-alive connection left idle while a test (or a script) computes for a few seconds is still
 * the server's when the client sends on it: the sandbox keeps idle connections far longer than a
 * client keeps them (undici: the server's hint less a second or two; Node's agents: until the
 * server closes), so the race "server closes the idle socket as the client reuses it" (ECONNRESET
 * on a busy machine, where timers run late) needs a minute of idleness instead of five seconds.
 */
import {expect} from 'vitest'

import {it} from '../helpers/fixtures.js'

it('advertises and keeps idle keep-alive connections for over a minute', async ({sandbox}) => {
  const response = await fetch(`${sandbox.sb.url}/v1/payments?limit=1`, {headers: {'x-api-key': sandbox.sb.keys.sandbox}})
  await response.arrayBuffer()
  expect(response.status).toBe(200)
  const hint = Number(/timeout=(\d+)/.exec(response.headers.get('keep-alive') ?? '')?.[1])
  expect(hint).toBeGreaterThanOrEqual(60)
})

