/**
 * Who holds a piece of local state (a reminder claim, a sandbox's registry entry, a data file):
 * a PID and, on Linux, that process's start time (`/proc/PID/stat`, field 22), so that a PID the
 * system has given to another process since (after a SIGKILL, or in a new container with the same
 * config volume) is not taken for the holder. Elsewhere the PID alone decides.
 */
import {readFileSync} from 'node:fs'

export interface ProcessOwner {
  pid: number
  /** The process's start time in clock ticks since boot (Linux); absent elsewhere. */
  pid_start?: string
}

/** The fields of `/proc/PID/stat` after the command name (state first), or undefined (no /proc, or no such process). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  } catch {
    return undefined
  }
}

/** The start time of a process, or undefined (no /proc, or no such process). */
function startTime(pid: number): string | undefined {
  return statFields(pid)?.[19]
}

let self: ProcessOwner | undefined

/** This process, as an owner. */
export function currentOwner(): ProcessOwner {
  self ??= {pid: process.pid, ...(startTime(process.pid) === undefined ? {} : {pid_start: startTime(process.pid)})}
  return self
}

/**
 * Whether the holder still runs: its PID is alive (EPERM: alive, someone else's), not a zombie (killed,
 * not yet reaped by its parent: it holds nothing any more) and, when both are known, started when it did.
 */
export function isOwnerAlive(owner: {pid?: unknown; pid_start?: unknown}): boolean {
  const pid = owner.pid
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return false
  if (pid === process.pid) return owner.pid_start === undefined || owner.pid_start === currentOwner().pid_start
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  const fields = statFields(pid)
  // State Z (zombie) or X (dead): the process has ended; only its entry in the process table is left.
  if (fields && (fields[0] === 'Z' || fields[0] === 'X')) return false
  if (typeof owner.pid_start !== 'string') return true
  const now = fields?.[19]
  return now === undefined || now === owner.pid_start
}
