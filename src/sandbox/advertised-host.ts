/**
 * The host a sandbox puts in the URLs it hands out (base URL, checkout pages, signed invoice
 * URLs, the OpenAPI document's server): where it was bound, except that an unspecified address
 * (0.0.0.0, ::) is no address another machine can use. Then a real interface address: the first
 * external IPv4 address, one of a bridge interface (docker0, br-…, virbr…, veth…) only if there is
 * no other; the loopback address when the machine has no network.
 */
type Interfaces = Record<string, ReadonlyArray<{address: string; family: string | number; internal: boolean}> | undefined>

const BRIDGE = /^(docker|br-|virbr|veth|cni|flannel|podman)/

export function advertisedHost(bound: string, interfaces: Interfaces): string {
  const unspecified = bound === '0.0.0.0' || bound === '::' || bound === '0:0:0:0:0:0:0:0'
  if (!unspecified) return bound.includes(':') ? `[${bound}]` : bound
  const external = Object.entries(interfaces).flatMap(([name, addresses]) =>
    (addresses ?? []).filter((a) => !a.internal && (a.family === 'IPv4' || a.family === 4)).map((a) => ({name, address: a.address})),
  )
  const chosen = external.find((a) => !BRIDGE.test(a.name)) ?? external[0]
  return chosen?.address ?? '127.0.0.1'
}
