/**
 * The production base URL is not in the spec (it writes `{base_url}`); it is set here, in one
 * place, at release. Until then every profile carries its own base URL (`svc login --base-url`,
 * or the `local` profile that `svc sandbox serve` saves).
 */
export const DEFAULT_BASE_URL = 'https://api.svc.example'

/** The service's documented default rate limit, per minute; the client paces itself under it. */
export const DEFAULT_RATE_PER_MINUTE = 100
