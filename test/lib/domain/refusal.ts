import {expect} from 'vitest'

import {InputError} from '../../../src/lib/errors.js'

/** Runs `fn`, expects an InputError for `field` (exit 2) whose message names the field; returns it. */
export function expectRefused(fn: () => unknown, field: string): InputError {
  let caught: unknown
  try {
    fn()
  } catch (error) {
    caught = error
  }
  expect(caught, 'expected an InputError').toBeInstanceOf(InputError)
  const error = caught as InputError
  expect(error.field).toBe(field)
  expect(error.exitCode).toBe(2)
  expect(error.code).toBe('invalid_input')
  expect(error.message).toContain(field)
  expect(error.message).not.toMatch(/\{\w+\}/) // every placeholder filled
  return error
}

/** Runs `fn`; anything thrown must be an InputError with a field and exit code 2. */
export function onlyInputErrors(fn: () => unknown): void {
  try {
    fn()
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    // Plain checks, not expect(): this runs thousands of times inside property tests.
    if (error.exitCode !== 2 || !error.field) throw new Error(`InputError without field or exit 2: ${error.message}`)
  }
}
