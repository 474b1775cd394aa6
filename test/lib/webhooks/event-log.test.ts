import {appendFile, mkdtemp, readFile, rm, stat} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'
import {type EventLog, findEventIn, openEventLog} from '../../../src/lib/webhooks/index.js'
import {makeEvent} from '../../helpers/receiver.js'

const dirs: string[] = []
const logs: EventLog[] = []
afterEach(async () => {
  for (const log of logs.splice(0)) await log.close()
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

async function freshLog(maxEvents?: number): Promise<EventLog> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-eventlog-'))
  dirs.push(dir)
  const log = await openEventLog({dir: join(dir, 'events'), maxEvents})
  logs.push(log)
  return log
}

function logEvent(log: EventLog, n: number): void {
  const event = makeEvent(n)
  log.appendEvent({id: event.id, type: event.type, received_at: new Date().toISOString(), source: 'inbound', payload: event})
}

describe('EventLog', () => {
  it('writes JSON lines to a 0600 file in a 0700 directory, and finds an event with its attempts', async () => {
    const log = await freshLog()
    logEvent(log, 1)
    logEvent(log, 2)
    log.appendAttempt({event_id: 'evt_test_000001', at: 'a', url: 'http://x/', attempt: 1, ok: false, status: 500, latency_ms: 3})
    log.appendAttempt({event_id: 'evt_test_000001', at: 'b', url: 'http://x/', attempt: 2, ok: true, status: 200, latency_ms: 2})
    log.appendSkip({event_id: 'evt_test_000002', at: 'c', reason: 'filtered'})
    await log.flush()
    expect((await stat(log.path)).mode & 0o777).toBe(0o600)
    expect((await stat(log.dir)).mode & 0o777).toBe(0o700)
    const lines = (await readFile(log.path, 'utf8')).trim().split('\n').map((line) => JSON.parse(line))
    expect(lines.map((line) => line.kind)).toEqual(['event', 'event', 'attempt', 'attempt', 'skip'])

    const found = await log.findEvent('evt_test_000001')
    expect(found).toMatchObject({id: 'evt_test_000001', type: 'payment.success', source: 'inbound', delivered: true})
    expect(found?.attempts.map((a) => a.status)).toEqual([500, 200])
    expect((found?.payload as {data: {amount: number}}).data.amount).toBe(1001)
    expect(await log.findEvent('evt_missing')).toBeUndefined()
    // Another process (replay) reads it without opening it for writing.
    expect((await findEventIn(log.dir, 'evt_test_000002'))?.skipped).toBe('filtered')
    expect(await log.undelivered()).toEqual([])
  })

  it('keeps its bound: the newest maxEvents are always there, never more than twice that', async () => {
    const log = await freshLog(100)
    for (let n = 0; n < 350; n++) {
      logEvent(log, n)
      if (n % 40 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
    await log.flush()
    const history = await log.history()
    expect(history.length).toBeGreaterThanOrEqual(100)
    expect(history.length).toBeLessThanOrEqual(200)
    expect(history.at(-1)?.id).toBe('evt_test_000349')
    expect(await log.findEvent('evt_test_000250')).toBeDefined()
    expect(await log.findEvent('evt_test_000010')).toBeUndefined()
    const ids = history.map((e) => Number(e.id.slice(-6)))
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect((await stat(log.previousPath)).mode & 0o777).toBe(0o600)
  })

  it('reopens an existing log, counting what it holds, and skips a torn last line', async () => {
    const log = await freshLog(10)
    for (let n = 0; n < 6; n++) logEvent(log, n)
    await log.close()
    logs.pop()
    await appendFile(log.path, '{"kind":"event","id":"evt_torn"')
    const reopened = await openEventLog({dir: log.dir, maxEvents: 10})
    logs.push(reopened)
    for (let n = 6; n < 12; n++) logEvent(reopened, n)
    await reopened.flush()
    // 6 + 6 > 10: it rotated once, so the first file holds 10 events and the current one 2.
    const history = await reopened.history()
    expect(history.map((e) => e.id)).not.toContain('evt_torn')
    expect(history).toHaveLength(12)
    expect((await readFile(reopened.path, 'utf8')).trim().split('\n')).toHaveLength(2)
    expect((await reopened.undelivered()).length).toBe(12)
  })
})
