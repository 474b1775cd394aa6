/**
 * Whether `webhooks test` may send without asking: only to this machine. A host is this machine
 * when it is a loopback address, or a name every address of which (as this machine's resolver
 * answers now) is loopback. A name alone proves nothing: `*.localhost` is loopback by RFC 6761, but
 * a resolver that forwards it could answer anything. The addresses found are the ones the
 * deliveries then go to (grade/send.ts), so a second answer cannot move them elsewhere.
 */
import type {LookupAddress} from 'node:dns'
import {isIP} from 'node:net'

export type Resolve = (hostname: string) => Promise<LookupAddress[]>

export interface ThisMachine {
  local: boolean
  /** The addresses checked: the ones to send to (empty for an address given as such, or a name not resolved). */
  addresses: LookupAddress[]
}

const defaultResolve: Resolve = async (hostname) => {
  const {lookup} = process.getBuiltinModule('node:dns/promises')
  return lookup(hostname, {all: true, verbatim: true})
}

export async function resolveThisMachine(hostname: string, resolve: Resolve = defaultResolve): Promise<ThisMachine> {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase()
  if (isIP(host) !== 0) return {local: isLoopback(host), addresses: []}
  let addresses: LookupAddress[]
  try {
    addresses = await resolve(host)
  } catch {
    return {local: false, addresses: []}
  }
  return {local: addresses.length > 0 && addresses.every((a) => isLoopback(a.address)), addresses}
}

/** 127.0.0.0/8, ::1, and 127.x written as IPv4-mapped IPv6. */
export function isLoopback(address: string): boolean {
  const host = address.toLowerCase()
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true
  const mapped = /^::ffff:(.+)$/.exec(host)?.[1]
  if (!mapped) return false
  if (mapped.includes('.')) return isLoopback(mapped)
  // ::ffff:7f00:1 is 127.0.0.1 in hex groups.
  return /^7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(mapped)
}
