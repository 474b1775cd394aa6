/**
 * The one error type of the sandbox's HTTP layer. Every error body is
 * `{message, code, errors?: [{field, message}]}` (docs/service.md, "Errors").
 */
import {t} from './i18n/index.js'
import type {FieldError} from './schema.js'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }

  body(): {message: string; code: string; errors?: FieldError[]} {
    return this.errors ? {message: this.message, code: this.code, errors: this.errors} : {message: this.message, code: this.code}
  }
}

/** A 400 listing each offending field; the message repeats them so that a client showing only `message` still helps. */
export function validationError(errors: FieldError[]): ApiError {
  return new ApiError(400, 'validation_error', t('sandbox.error.validation', {details: errors.map((e) => e.message).join(' ')}), errors)
}

export function notFound(what: string, id: string): ApiError {
  return new ApiError(404, 'not_found', t('sandbox.error.notFound', {what, id}))
}

export function invalidState(message: string): ApiError {
  return new ApiError(409, 'invalid_state', message)
}
