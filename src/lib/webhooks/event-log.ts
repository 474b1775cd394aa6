/**
 * The local event log: an append-only JSON-lines file (mode 0600, directory 0700) holding every
 * event the listener received (signature-free) and each forward attempt's outcome. It backs
 * `svc webhooks replay EVENT_ID`, seeds the listener's duplicate filter and lets it resume
 * deliveries that were pending when it stopped.
 *
 * Bounded: the current file takes `maxEvents` events, then becomes `events.1.jsonl` (replacing
 * the previous one) and a new file starts. So the newest `maxEvents` events are always kept, and
 * never more than twice that.
 *
 * Writes are buffered and flushed on the next tick (one write per burst), so that logging stays
 * out of the forwarding path's latency; `flush()` waits for them.
 */
import {createReadStream} from 'node:fs'
import {chmod, mkdir, open, rename, stat, type FileHandle} from 'node:fs/promises'
import {join} from 'node:path'
import {createInterface} from 'node:readline'

export const DEFAULT_MAX_EVENTS = 10_000
const CURRENT = 'events.jsonl'
const PREVIOUS = 'events.1.jsonl'

export type EventSource = 'inbound' | 'poll' | 'ingest' | 'replay'

export interface LoggedEvent {
  id: string
  type: string
  received_at: string
  source: EventSource
  /** The event as received, without any signature header. */
  payload: unknown
}

export interface AttemptRecord {
  event_id: string
  at: string
  url: string
  attempt: number
  ok: boolean
  status?: number
  error?: string
  latency_ms: number
}

/** An event that was received but deliberately not forwarded (filtered out, no route). */
export interface SkipRecord {
  event_id: string
  at: string
  reason: 'filtered' | 'no_route'
}

type LogLine =
  | ({kind: 'event'} & LoggedEvent)
  | ({kind: 'attempt'} & AttemptRecord)
  | ({kind: 'skip'} & SkipRecord)

export interface EventHistory extends LoggedEvent {
  attempts: AttemptRecord[]
  delivered: boolean
  skipped?: SkipRecord['reason']
}

export interface EventLogOptions {
  dir: string
  maxEvents?: number
}

export class EventLog {
  readonly dir: string
  readonly path: string
  readonly previousPath: string
  readonly maxEvents: number
  private handle: FileHandle | undefined
  private buffer: string[] = []
  private scheduled = false
  private writing: Promise<void> = Promise.resolve()
  private eventsInCurrent: number
  private failure: Error | undefined

  private constructor(dir: string, maxEvents: number, handle: FileHandle, eventsInCurrent: number) {
    this.dir = dir
    this.path = join(dir, CURRENT)
    this.previousPath = join(dir, PREVIOUS)
    this.maxEvents = maxEvents
    this.handle = handle
    this.eventsInCurrent = eventsInCurrent
  }

  static async open(options: EventLogOptions): Promise<EventLog> {
    const maxEvents = Math.max(1, options.maxEvents ?? DEFAULT_MAX_EVENTS)
    await mkdir(options.dir, {recursive: true, mode: 0o700})
    const path = join(options.dir, CURRENT)
    let count = 0
    for await (const line of readLines(path)) if (line.kind === 'event') count++
    const handle = await openAppend(path)
    return new EventLog(options.dir, maxEvents, handle, count)
  }

  /**
   * Log a received event. `payloadJson`, when given, is the payload already serialised (the raw
   * body the listener received, known to be valid JSON): it is written as is, saving a stringify
   * on the forwarding path.
   */
  appendEvent(event: LoggedEvent, payloadJson?: string): void {
    if (payloadJson === undefined) {
      this.push(JSON.stringify({kind: 'event', ...event}), true)
      return
    }
    const {payload: _payload, ...meta} = event
    this.push(JSON.stringify({kind: 'event', ...meta}).slice(0, -1) + ',"payload":' + payloadJson.trim() + '}', true)
  }

  appendAttempt(attempt: AttemptRecord): void {
    this.push(JSON.stringify({kind: 'attempt', ...attempt}), false)
  }

  appendSkip(skip: SkipRecord): void {
    this.push(JSON.stringify({kind: 'skip', ...skip}), false)
  }

  /** Wait until everything appended so far is on disk. */
  async flush(): Promise<void> {
    this.drainLater()
    await this.writing
    if (this.failure) throw this.failure
  }

  async close(): Promise<void> {
    await this.flush()
    await this.handle?.close()
    this.handle = undefined
  }

  /** The event with this id and what happened to it, newest record first if logged twice. */
  async findEvent(id: string): Promise<EventHistory | undefined> {
    await this.flush()
    return findEventIn(this.dir, id)
  }

  /** Every logged event with its attempts, oldest first. */
  async history(): Promise<EventHistory[]> {
    await this.flush()
    return readHistory(this.dir)
  }

  /** Events received but neither delivered nor skipped: what a restarted listener resumes. */
  async undelivered(): Promise<EventHistory[]> {
    return (await this.history()).filter((event) => !event.delivered && !event.skipped)
  }

  private push(line: string, isEvent: boolean): void {
    if (isEvent) this.eventsInCurrent++
    // One record per line: a raw payload with a line break inside would split it.
    this.buffer.push(line.includes('\n') ? JSON.stringify(JSON.parse(line)) + '\n' : line + '\n')
    // Rotate after the write that filled the current file; the marker keeps order.
    if (isEvent && this.eventsInCurrent >= this.maxEvents) {
      this.eventsInCurrent = 0
      this.drainLater()
      this.writing = this.writing.then(() => this.rotate())
      return
    }
    if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => {
        this.scheduled = false
        this.drainLater()
      })
    }
  }

  /** Take the buffered lines now (so later lines cannot overtake a rotation) and queue their write. */
  private drainLater(): void {
    if (this.buffer.length === 0) return
    const chunk = this.buffer.join('')
    this.buffer = []
    this.writing = this.writing.then(async () => {
      try {
        await this.handle?.appendFile(chunk, 'utf8')
      } catch (error) {
        this.failure = error as Error
      }
    })
  }

  private async rotate(): Promise<void> {
    try {
      await this.handle?.close()
      await rename(this.path, this.previousPath)
      this.handle = await openAppend(this.path)
    } catch (error) {
      this.failure = error as Error
    }
  }
}

export function openEventLog(options: EventLogOptions): Promise<EventLog> {
  return EventLog.open(options)
}

/** Look an event up without opening the log for writing (e.g. `svc webhooks replay` in its own process). */
export async function findEventIn(dir: string, id: string): Promise<EventHistory | undefined> {
  const events = await readHistory(dir)
  for (let i = events.length - 1; i >= 0; i--) if (events[i].id === id) return events[i]
  return undefined
}

/** Every logged event with its attempts, oldest first, read without opening the log for writing (`svc webhooks events`). */
export function readEventHistory(dir: string): Promise<EventHistory[]> {
  return readHistory(dir)
}

async function readHistory(dir: string): Promise<EventHistory[]> {
  const byId = new Map<string, EventHistory>()
  const order: EventHistory[] = []
  for (const file of [join(dir, PREVIOUS), join(dir, CURRENT)]) {
    for await (const line of readLines(file)) {
      if (line.kind === 'event') {
        const {kind: _kind, ...event} = line
        const entry: EventHistory = {...event, attempts: [], delivered: false}
        byId.set(event.id, entry)
        order.push(entry)
      } else if (line.kind === 'attempt') {
        const entry = byId.get(line.event_id)
        if (!entry) continue
        const {kind: _kind, ...attempt} = line
        entry.attempts.push(attempt)
        if (attempt.ok) entry.delivered = true
      } else if (line.kind === 'skip') {
        const entry = byId.get(line.event_id)
        if (entry) entry.skipped = line.reason
      }
    }
  }
  // A re-logged id (a replay) supersedes the earlier entry in the listing.
  return order.filter((entry) => byId.get(entry.id) === entry)
}

async function* readLines(path: string): AsyncGenerator<LogLine> {
  try {
    await stat(path)
  } catch {
    return
  }
  const lines = createInterface({input: createReadStream(path, {encoding: 'utf8'}), crlfDelay: Infinity})
  for await (const text of lines) {
    if (!text) continue
    try {
      const line = JSON.parse(text) as LogLine
      if (line && typeof line === 'object' && typeof line.kind === 'string') yield line
    } catch {
      // A torn last line (a crash mid-write) is skipped, not fatal.
    }
  }
}

async function openAppend(path: string): Promise<FileHandle> {
  const handle = await open(path, 'a+', 0o600)
  // `mode` applies only when the file is created; tighten an existing one too.
  await chmod(path, 0o600)
  // After a crash mid-write, end the torn line so that the next record starts on its own line.
  const {size} = await handle.stat()
  if (size > 0) {
    const last = Buffer.alloc(1)
    await handle.read(last, 0, 1, size - 1)
    if (last[0] !== 0x0a) await handle.appendFile('\n')
  }
  return handle
}
