/** Why a file could not be read, in words a person acts on (`ENOENT` → "no such file"), the code kept in brackets. */
import {t} from '../i18n/index.js'

export function readReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ENOENT') return t('core.fs.ENOENT', {code})
  if (code === 'EACCES' || code === 'EPERM') return t('core.fs.EACCES', {code})
  if (code === 'EISDIR') return t('core.fs.EISDIR', {code})
  return code ?? String(error)
}
