/**
 * Rules of the local sandbox's admin surface that the CLI checks before sending
 * (docs/service.md "Limits"; docs/sandbox.md). Imports nothing.
 */

/** A snapshot name: safe as a file name everywhere (`svc sandbox snapshot save NAME`). */
export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/** The latest instant the sandbox clock may show: 9999-12-31, end of day (UTC). */
export const MAX_SANDBOX_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

/** The most one clock advance may move the sandbox clock: 3 650 days. */
export const MAX_ADVANCE_MS = 3650 * 86_400_000
