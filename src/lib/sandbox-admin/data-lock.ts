/**
 * One sandbox per data file: `svc sandbox serve --data FILE` holds FILE while it runs, through an
 * owner file beside it, `FILE.owner` (mode 0600: its PID and process start time, process-owner.ts). A second serve on the
 * same file finds a live owner and exits 2 naming the file and that PID, before it opens the
 * database (two processes writing one SQLite file through their own caches lose updates). The
 * owner file of a process that died (SIGKILL, a power cut) names a dead PID: the next start takes
 * it over. Read and taken under the lock of config/lock.ts, so two starts at once never both win.
 *
 * Not SQLite's `locking_mode=EXCLUSIVE`: the sandbox's checkpointer runs its own connection to
 * the file in a worker thread, which an exclusive lock would shut out.
 */
import {chmodSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {resolve} from 'node:path'

import type {Clock} from '../../contract/clock.js'
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import {currentOwner, isOwnerAlive, type ProcessOwner} from '../config/process-owner.js'

interface Owner extends ProcessOwner {
  started_at: string
}

export interface DataFileHold {
  /** The data file, absolute. */
  file: string
  release(): void
}

function ownerPath(file: string): string {
  return `${file}.owner`
}

function readOwner(path: string): Owner | undefined {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Owner
    return typeof owner.pid === 'number' ? owner : undefined
  } catch {
    return undefined
  }
}

/**
 * File-system refusals around the owner file (no space, read-only, no such directory, a path
 * through a file…): the database cannot be written either, and opening it says so with the file
 * named and the way out (src/sandbox). So the start goes on without a hold and lets it.
 */
const CANNOT_WRITE = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM', 'ENOENT', 'ENOTDIR', 'EISDIR', 'EFBIG'])

/** Holds `file` for this process, or exit 2 naming the live process that holds it. */
export async function holdDataFile(given: string, clock: Clock): Promise<DataFileHold> {
  const file = resolve(given)
  const path = ownerPath(file)
  const {withFileLock} = await import('../config/lock.js')
  try {
    await withFileLock(path, () => {
      const owner = readOwner(path)
      if (owner && owner.pid !== process.pid && isOwnerAlive(owner)) {
        throw new InputError(t('local.serve.dataInUse', {file, pid: owner.pid, since: owner.started_at}), {field: 'data', code: 'data_file_in_use'})
      }
      const temporary = `${path}.${process.pid}.tmp`
      try {
        writeFileSync(temporary, `${JSON.stringify({...currentOwner(), started_at: new Date(clock.now()).toISOString()} satisfies Owner)}\n`, {mode: 0o600})
        chmodSync(temporary, 0o600)
        renameSync(temporary, path)
      } catch (error) {
        rmSync(temporary, {force: true})
        throw error
      }
    }, {clock})
  } catch (error) {
    if (CANNOT_WRITE.has((error as NodeJS.ErrnoException).code ?? '')) return {file, release() {}}
    throw error
  }
  return {
    file,
    release() {
      // Only our own: a file taken over after we were presumed dead is the new owner's.
      if (readOwner(path)?.pid === process.pid) rmSync(path, {force: true})
    },
  }
}
