/**
 * The admin surface under attack and on a network: failed admin authentication is rate limited
 * per address (429 + Retry-After, the right token included while limited, freed as the sandbox
 * clock moves on); the admin tokens that help and docs show are ones `serve` accepts; bound to a
 * non-loopback address, the sandbox advertises an address other machines can use, never 0.0.0.0.
 */
import {readFileSync, readdirSync} from 'node:fs'
import {describe, expect} from 'vitest'

import {checkAdminToken} from '../../src/lib/sandbox-admin/serve.js'
import {advertisedHost} from '../../src/sandbox/advertised-host.js'
import {withHarness} from './helpers.js'

const it = withHarness()

describe('failed admin authentication is rate limited per address', () => {
  it('200 wrong tokens: 401 at first, then 429 with Retry-After; the right token too while limited; free again a minute later', async ({h}) => {
    const statuses: number[] = []
    let retryAfter: string | null = null
    for (let i = 0; i < 200; i++) {
      const reply = await h.admin('GET', '/_admin/clock', undefined, `wrong-token-${i}`)
      statuses.push(reply.status)
      if (reply.status === 429) {
        retryAfter = reply.headers.get('retry-after')
        expect(reply.body.code).toBe('rate_limited')
      }
    }
    const unauthorized = statuses.filter((s) => s === 401).length
    expect(unauthorized).toBeGreaterThan(0)
    expect(unauthorized).toBeLessThanOrEqual(20)
    expect(statuses.slice(unauthorized).every((s) => s === 429)).toBe(true)
    expect(Number(retryAfter)).toBeGreaterThan(0)
    // Limited: a guess that happens to be right is not told apart from a wrong one.
    expect((await h.admin('GET', '/_admin/clock')).status).toBe(429)
    // The public API is not the admin surface: it keeps answering.
    expect((await h.api('GET', '/v1/payments')).status).toBe(200)
    await h.sb.clock.advance(61_000)
    expect((await h.admin('GET', '/_admin/clock')).status).toBe(200)
  })
})

describe('admin tokens in help and docs are accepted', () => {
  it('every example token of sandbox serve --help and docs/*.md passes serve’s check', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../oclif.manifest.json', import.meta.url), 'utf8'))
    const examples: string[] = manifest.commands['sandbox:serve'].examples
    const docs = readdirSync(new URL('../../docs/', import.meta.url))
      .filter((name) => name.endsWith('.md'))
      .map((name) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8'))
    const tokens = [...examples, ...docs].flatMap((text) =>
      [...text.matchAll(/(?:SVC_SANDBOX_ADMIN_TOKEN=|--admin-token[ =])([^\s"'`$…]+)/g)].map((m) => m[1]!).filter((token) => !/^[A-Z_]+$/.test(token)),
    )
    expect(tokens.length).toBeGreaterThan(0)
    for (const token of tokens) expect(() => checkAdminToken(token), token).not.toThrow()
  })
})

describe('the address a sandbox bound to all interfaces advertises', () => {
  const interfaces = {
    lo: [{address: '127.0.0.1', family: 'IPv4', internal: true}],
    docker0: [{address: '172.17.0.1', family: 'IPv4', internal: false}],
    eth0: [
      {address: 'fe80::1', family: 'IPv6', internal: false},
      {address: '192.168.1.20', family: 'IPv4', internal: false},
    ],
  } as const
  it('0.0.0.0 or :: → a real interface address (not a bridge first when another exists); loopback and specific addresses as bound', () => {
    expect(advertisedHost('0.0.0.0', interfaces)).toBe('192.168.1.20')
    expect(advertisedHost('::', interfaces)).toBe('192.168.1.20')
    expect(advertisedHost('127.0.0.1', interfaces)).toBe('127.0.0.1')
    expect(advertisedHost('192.168.1.20', interfaces)).toBe('192.168.1.20')
    expect(advertisedHost('::1', interfaces)).toBe('[::1]')
    // Only loopback: the loopback address (the machine is not on a network anyway).
    expect(advertisedHost('0.0.0.0', {lo: interfaces.lo})).toBe('127.0.0.1')
    expect(advertisedHost('0.0.0.0', {lo: interfaces.lo, docker0: interfaces.docker0})).toBe('172.17.0.1')
  })
})
