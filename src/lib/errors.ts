/**
 * One error hierarchy for the whole CLI. Every error carries the exit code of README.md, "Exit codes"; the base
 * command maps it once (also under --json, where oclif alone would exit 1).
 */
export const ExitCode = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  CONFLICT: 5,
  RATE_LIMITED: 6,
  UNAVAILABLE: 7,
  WATCH_TIMEOUT: 8,
  INTERRUPTED: 130,
  /** SIGTERM: a long-running command stopped as cleanly as on Ctrl-C. */
  TERMINATED: 143,
} as const
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode]

export interface FieldError {
  field: string
  message: string
}

export interface SvcErrorOptions {
  exitCode: ExitCodeValue
  /** Stable, machine-readable code (the service's `code`, or one of ours). */
  code: string
  status?: number
  /** The input field or flag at fault, when there is one. */
  field?: string
  /** One more sentence telling the user what to do next. */
  hint?: string
  cause?: unknown
}

export class SvcError extends Error {
  readonly exitCode: ExitCodeValue
  readonly code: string
  readonly status?: number
  readonly field?: string
  readonly hint?: string

  constructor(message: string, options: SvcErrorOptions) {
    super(message, options.cause === undefined ? undefined : {cause: options.cause})
    this.name = new.target.name
    this.exitCode = options.exitCode
    this.code = options.code
    this.status = options.status
    this.field = options.field
    this.hint = options.hint
  }

  /** The `error` object of the `--json` envelope: `{"error": {...}}`. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = {status: this.status ?? null, code: this.code, message: this.message}
    if (this.field) out.field = this.field
    if (this.hint) out.hint = this.hint
    return out
  }
}

/** Bad input, refused before any request is sent (exit 2). */
export class InputError extends SvcError {
  constructor(message: string, options: {field?: string; hint?: string; code?: string} = {}) {
    super(message, {exitCode: ExitCode.USAGE, code: options.code ?? 'invalid_input', ...options})
  }
}

/** The service answered with an error status. */
export class ApiError extends SvcError {
  readonly failureCode?: string
  readonly requestId?: string
  readonly errors?: FieldError[]
  readonly retryAfterSeconds?: number

  constructor(
    message: string,
    options: {
      status: number
      code?: string
      failureCode?: string
      requestId?: string
      errors?: FieldError[]
      retryAfterSeconds?: number
      hint?: string
    },
  ) {
    super(message, {
      exitCode: exitCodeForStatus(options.status),
      code: options.code ?? codeForStatus(options.status),
      status: options.status,
      hint: options.hint,
    })
    this.failureCode = options.failureCode
    this.requestId = options.requestId
    this.errors = options.errors
    this.retryAfterSeconds = options.retryAfterSeconds
  }

  override toJSON(): Record<string, unknown> {
    const out = super.toJSON()
    if (this.errors?.length) out.errors = this.errors
    if (this.failureCode) out.failure_code = this.failureCode
    if (this.requestId) out.request_id = this.requestId
    return out
  }
}

/** Timeout, refused connection, reset: the outcome may be unknown (exit 7). */
export class NetworkError extends SvcError {
  constructor(message: string, options: {code?: 'timeout' | 'network_error' | 'not_connected'; hint?: string; cause?: unknown} = {}) {
    super(message, {exitCode: ExitCode.UNAVAILABLE, code: options.code ?? 'network_error', ...options})
  }
}

/** The operation ran and its outcome is a failure, e.g. a payment that settled FAILED (exit 1). */
export class OutcomeError extends SvcError {
  constructor(message: string, options: {code: string; exitCode?: ExitCodeValue; hint?: string}) {
    super(message, {exitCode: options.exitCode ?? ExitCode.FAILURE, code: options.code, hint: options.hint})
  }
}

/**
 * A failure the user has already been told about (e.g. `--json` printed the final object, whose
 * fields say what went wrong, or a table marked the step that misbehaved): it carries only the exit
 * code. The base command sets that code and prints nothing more. Library code throws it instead of
 * setting `process.exitCode`, so the base command stays the one place that ends a run.
 */
export class Failure extends SvcError {
  readonly silent = true

  constructor(exitCode: ExitCodeValue, options: {code?: string; cause?: unknown} = {}) {
    super('', {exitCode, code: options.code ?? 'failure', cause: options.cause})
  }

  /** The silent form of `error`: same exit code and code, its message already shown another way. */
  static after(error: SvcError): Failure {
    return new Failure(error.exitCode, {code: error.code, cause: error})
  }
}

export function exitCodeForStatus(status: number): ExitCodeValue {
  // 413: the request itself is too large; sending it again cannot help.
  if (status === 400 || status === 413) return ExitCode.USAGE
  if (status === 401 || status === 403) return ExitCode.AUTH
  if (status === 404) return ExitCode.NOT_FOUND
  if (status === 409 || status === 422) return ExitCode.CONFLICT
  if (status === 429) return ExitCode.RATE_LIMITED
  if (status >= 500) return ExitCode.UNAVAILABLE
  return ExitCode.FAILURE
}

function codeForStatus(status: number): string {
  const byStatus: Record<number, string> = {
    400: 'validation_error',
    413: 'payload_too_large',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    409: 'invalid_state',
    422: 'unprocessable',
    429: 'rate_limited',
  }
  return byStatus[status] ?? (status >= 500 ? 'server_error' : 'http_error')
}
