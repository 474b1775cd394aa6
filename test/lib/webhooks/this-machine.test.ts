/**
 * `webhooks test` sends without asking only to this machine: a host counts as this machine only
 * if it is a loopback address or every address it resolves to is (a resolver that forwards
 * `*.localhost` would otherwise send deliveries off the machine without --yes).
 */
import type {LookupAddress} from 'node:dns'
import {describe, expect, it} from 'vitest'

import {resolveThisMachine} from '../../../src/lib/webhooks/this-machine.js'

/** A resolver answering from a table, as a forwarding one would. */
const resolver = (table: Record<string, string[]>) => async (hostname: string): Promise<LookupAddress[]> => {
  const addresses = table[hostname]
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {code: 'ENOTFOUND'})
  return addresses.map((address) => ({address, family: address.includes(':') ? 6 : 4}))
}

describe('resolveThisMachine', () => {
  it('loopback literals are this machine, without asking any resolver', async () => {
    const none = resolver({})
    for (const host of ['127.0.0.1', '127.3.4.5', '[::1]', '::1', '[::ffff:127.0.0.1]']) {
      expect((await resolveThisMachine(host, none)).local, host).toBe(true)
    }
    for (const host of ['192.168.1.20', '10.0.0.1', '[fe80::1]', '0.0.0.0']) {
      expect((await resolveThisMachine(host, none)).local, host).toBe(false)
    }
  })

  it('a name is this machine only if every address it resolves to is loopback, *.localhost included', async () => {
    const lookup = resolver({
      localhost: ['127.0.0.1', '::1'],
      'foo.localhost': ['203.0.113.5'],
      'app.localhost': ['127.0.0.1'],
      'mixed.localhost': ['127.0.0.1', '198.51.100.7'],
      'dev.example': ['127.0.0.1'],
    })
    expect(await resolveThisMachine('localhost', lookup)).toEqual({local: true, addresses: [{address: '127.0.0.1', family: 4}, {address: '::1', family: 6}]})
    expect((await resolveThisMachine('foo.localhost', lookup)).local).toBe(false)
    expect((await resolveThisMachine('mixed.localhost', lookup)).local).toBe(false)
    expect((await resolveThisMachine('app.localhost', lookup)).local).toBe(true)
    expect((await resolveThisMachine('dev.example', lookup)).local).toBe(true)
    // Not resolved: not known to be this machine.
    expect((await resolveThisMachine('nowhere.localhost', lookup)).local).toBe(false)
  })
})
