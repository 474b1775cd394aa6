/**
 * An unknown outcome (exit 7) of a write sent with an Idempotency-Key: the service may have acted.
 * What a safe retry needs is the key this run used and the same command with it, which replays
 * the first answer instead of acting twice (a new key would make a second invoice).
 */
import {ExitCode, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {retryCommand} from '../io/shell.js'

/** `argv`: the command line as invoked (the context's), given back with this key. */
export function withSafeRetry(error: unknown, key: string, argv: readonly string[]): unknown {
  if (!(error instanceof SvcError) || error.exitCode !== ExitCode.UNAVAILABLE) return error
  const command = retryCommand({argv, replace: ['--idempotency-key'], append: ['--idempotency-key', key]})
  return new SvcError(error.message, {
    exitCode: error.exitCode,
    code: error.code,
    status: error.status,
    hint: t('api.hint.safeRetry', {key, command}),
    cause: error,
  })
}
