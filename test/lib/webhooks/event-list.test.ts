import {mkdtemp, rm} from 'node:fs/promises'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import {listLoggedEvents} from '../../../src/lib/webhooks/event-list.js'
import {openEventLog} from '../../../src/lib/webhooks/event-log.js'
import {makeEvent} from '../../helpers/receiver.js'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, {recursive: true, force: true})
})

describe('listLoggedEvents', () => {
  it('gives each event its status (delivered, failed, pending, skipped), newest first; filters and limits', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'svc-eventlist-'))
    dirs.push(dir)
    const log = await openEventLog({dir: join(dir, 'events')})
    for (let n = 1; n <= 5; n++) {
      const event = makeEvent(n)
      log.appendEvent({id: event.id, type: event.type, received_at: new Date(Date.UTC(2026, 0, n)).toISOString(), source: 'inbound', payload: event})
    }
    const id = (n: number) => makeEvent(n).id
    const attempt = (n: number, ok: boolean, at: number) => ({event_id: id(n), at: String(at), url: 'http://x/', attempt: at, ok, status: ok ? 200 : 500, latency_ms: 1})
    log.appendAttempt(attempt(1, true, 1)) // delivered at once
    log.appendAttempt(attempt(2, false, 1)) // failed, then delivered by a replay
    log.appendAttempt(attempt(2, true, 2))
    log.appendAttempt(attempt(3, false, 1)) // failed
    log.appendSkip({event_id: id(4), at: 'x', reason: 'filtered'}) // skipped; 5: pending
    await log.close()

    const all = await listLoggedEvents(log.dir)
    expect(all.map((e) => [e.id, e.status])).toEqual([
      [id(5), 'pending'],
      [id(4), 'skipped'],
      [id(3), 'failed'],
      [id(2), 'delivered'],
      [id(1), 'delivered'],
    ])
    expect((await listLoggedEvents(log.dir, {status: 'failed'})).map((e) => e.id)).toEqual([id(3)])
    expect((await listLoggedEvents(log.dir, {status: 'delivered', limit: 1})).map((e) => e.id)).toEqual([id(2)])
    expect(await listLoggedEvents(join(dir, 'nothing-here'))).toEqual([])
  })
})
