// The work of `svc webhooks verify`: one delivery (payload and headers) checked against a secret.
import type {Context} from '../context.js'
import {OutcomeError} from '../errors.js'
import {parseDuration} from '../time/duration.js'
import {readPayload, verifyDelivery} from './verify-input.js'

export interface VerifyFlags {
  secret: string
  payload: string
  header?: string[]
  tolerance: string
}

/**
 * Exit 0 when the delivery verifies, 1 when it does not (mismatch, stale or future timestamp, a
 * missing header). Exit 2 for flags that cannot be used: a --secret that is not a signing secret,
 * an unreadable payload, a malformed --header line, a bad --tolerance.
 */
export async function webhooksVerify(ctx: Context, flags: VerifyFlags, stdin: AsyncIterable<Buffer | string> = ctx.io.streams.stdin as AsyncIterable<Buffer | string>): Promise<void> {
  const {io} = ctx
  const toleranceMs = parseDuration(flags.tolerance, 'tolerance')
  const payload = await readPayload(flags.payload, stdin)
  const report = verifyDelivery({
    secret: flags.secret,
    payload,
    headers: flags.header ?? [],
    toleranceSeconds: Math.floor(toleranceMs / 1000),
    nowSeconds: Math.floor(ctx.clock.now() / 1000),
  })
  await io.result(report, () => {
    if (report.ok) io.out(report.message)
  })
  if (report.ok) return
  const failure = new OutcomeError(report.message, {code: report.reason, hint: report.hint})
  throw io.afterResult(failure)
}

