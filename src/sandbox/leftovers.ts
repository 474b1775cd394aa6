/**
 * What a killed sandbox leaves beside its data file: the temporary file of a snapshot save
 * (`NAME.sqlite.PID.N.tmp`), the working copy of a restore (`NAME.sqlite.PID.N.restore`), the new
 * file of a JSON import (`FILE.PID.import`), each with the -journal, -wal or -shm SQLite may have
 * made for it. Every such name carries the pid of the process that made it; at start, the files
 * of a process that no longer runs are removed (a live one may still be writing its own).
 */
import {readdirSync, rmSync} from 'node:fs'
import {basename, dirname, join} from 'node:path'

const SUFFIX = '(?:-journal|-wal|-shm)?$'
const BESIDE = new RegExp(`^\\.(\\d+)(?:\\.\\d+)?\\.(?:import|tmp|restore)${SUFFIX}`)
const IN_SNAPSHOTS = new RegExp(`^.+\\.sqlite\\.(\\d+)(?:\\.\\d+)?\\.(?:tmp|restore)${SUFFIX}`)

let sequence = 0

/** A temporary name beside `target` no other save, restore or process uses: `TARGET.PID.N.KIND`. */
export function temporaryName(target: string, kind: 'tmp' | 'restore' | 'import'): string {
  sequence += 1
  return `${target}.${process.pid}.${sequence}.${kind}`
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function sweep(folder: string, match: (name: string) => RegExpExecArray | null): string[] {
  let names: string[]
  try {
    names = readdirSync(folder)
  } catch {
    return []
  }
  const removed: string[] = []
  for (const name of names) {
    const found = match(name)
    if (!found || running(Number(found[1]))) continue
    const path = join(folder, name)
    try {
      rmSync(path, {force: true, recursive: true})
      removed.push(path)
    } catch {
      // Not ours to remove (permissions): it stays, as it was.
    }
  }
  return removed
}

/** Removes the leftovers of killed processes beside `file` and in its snapshot directory; returns their paths. */
export function removeLeftovers(file: string): string[] {
  const base = basename(file)
  return [
    ...sweep(dirname(file), (name) => (name.startsWith(`${base}.`) ? BESIDE.exec(name.slice(base.length)) : null)),
    ...sweep(`${file}.snapshots`, (name) => IN_SNAPSHOTS.exec(name)),
  ]
}
