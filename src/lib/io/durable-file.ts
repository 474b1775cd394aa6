/**
 * A file replaced whole, as a crash or a power cut leaves it either before or after, never half:
 * written to a temporary file beside it (mode 0600: these files hold keys and counters), flushed
 * to disk, renamed over the old one, and the rename flushed too. Node's fs only: cheap to load.
 */
import {closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync} from 'node:fs'
import {dirname} from 'node:path'

export function writeFileDurably(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`
  try {
    const fd = openSync(temporary, 'w', 0o600)
    try {
      writeSync(fd, text)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, {force: true})
    throw error
  }
  const dir = openSync(dirname(path), 'r')
  try {
    fsyncSync(dir)
  } finally {
    closeSync(dir)
  }
}
