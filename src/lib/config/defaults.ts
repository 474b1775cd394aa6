/**
 * The production base URL is not in the spec (it writes `{base_url}`); it is set here, in one
 * place, at release. Until then every profile carries its own base URL (`svc login --base-url`,
 * or the `local` profile that `svc sandbox serve` saves).
 */
export const DEFAULT_BASE_URL = 'https://api.svc.example'

/** The service's documented default rate limit, per minute; the client paces itself under it. */
export const DEFAULT_RATE_PER_MINUTE = 100

/**
 * True for an address that cannot be the service: the placeholder above, or any host under the
 * reserved `.example` domain (RFC 2606), which never resolves. Commands refuse it before sending
 * anything, naming --base-url, instead of failing later with a DNS error.
 */
export function isPlaceholderBaseUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase()
    return host === 'example' || host.endsWith('.example')
  } catch {
    return false
  }
}
