/**
 * What can go wrong with a sandbox's data file, said so that a person knows what happened and what
 * to do: no space left (a write refused: 507 `insufficient_storage`), a damaged database, a
 * directory where a file was expected, a file or file system that cannot be written.
 */
import {statSync} from 'node:fs'

import {t} from './i18n/index.js'

export type DataFileProblem = 'insufficient_storage' | 'data_file_damaged' | 'data_file_directory' | 'data_file_read_only'

/** The data file cannot be used; `code` says why, the message names the file and the way out. */
export class DataFileError extends Error {
  constructor(
    readonly code: DataFileProblem,
    readonly file: string,
    message: string,
    options?: {cause?: unknown},
  ) {
    super(message, options)
    this.name = 'DataFileError'
  }
}

const code = (error: unknown): string => String((error as {code?: unknown})?.code ?? '')

/**
 * A write refused for lack of space: SQLite's SQLITE_FULL (ENOSPC underneath), a quota, or a
 * file-size limit (EFBIG, which SQLite reports as a failed write).
 */
export function isNoSpace(error: unknown): boolean {
  return ['SQLITE_FULL', 'SQLITE_IOERR_WRITE', 'ENOSPC', 'EDQUOT', 'EFBIG'].includes(code(error))
}

function isDamaged(error: unknown): boolean {
  const c = code(error)
  return c.startsWith('SQLITE_CORRUPT') || c === 'SQLITE_NOTADB' || c === 'data_file_damaged'
}

function isReadOnly(error: unknown): boolean {
  const c = code(error)
  return c.startsWith('SQLITE_READONLY') || c.startsWith('SQLITE_CANTOPEN') || ['EROFS', 'EACCES', 'EPERM'].includes(c)
}

function reason(error: unknown): string {
  return (error as Error)?.message ?? String(error)
}

/** The error to report for a failure opening or first writing `file`: a DataFileError when it is one of ours to explain. */
export function explainDataFileError(file: string, error: unknown): unknown {
  if (error instanceof DataFileError) return error
  let directory = false
  try {
    directory = statSync(file).isDirectory()
  } catch {
    // Not there: not a directory.
  }
  if (directory || code(error) === 'EISDIR') return new DataFileError('data_file_directory', file, t('sandbox.storage.directory', {file}), {cause: error})
  if (isNoSpace(error)) return new DataFileError('insufficient_storage', file, t('sandbox.storage.fullAtStart', {file}), {cause: error})
  if (isDamaged(error)) return damaged(file, reason(error), error)
  if (isReadOnly(error)) return new DataFileError('data_file_read_only', file, t('sandbox.storage.readOnly', {file, reason: reason(error)}), {cause: error})
  return error
}

export function damaged(file: string, why: string, cause?: unknown): DataFileError {
  return new DataFileError('data_file_damaged', file, t('sandbox.storage.damaged', {file, reason: why}), {cause})
}
