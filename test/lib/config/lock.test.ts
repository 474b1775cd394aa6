import {mkdirSync, mkdtempSync, rmSync, statSync, utimesSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, afterEach, describe, expect, it} from 'vitest'

import {withFileLock} from '../../../src/lib/config/lock.js'
import {skippingClock} from '../../helpers/clock.js'

const dir = mkdtempSync(join(tmpdir(), 'svc-lock-'))
const file = join(dir, 'config.json')
afterEach(() => rmSync(`${file}.lock`, {recursive: true, force: true}))
afterAll(() => rmSync(dir, {recursive: true, force: true}))

describe('withFileLock', () => {
  it('runs one holder at a time, in this process too', async () => {
    let inside = 0
    let most = 0
    await Promise.all(
      Array.from({length: 20}, () =>
        withFileLock(file, async () => {
          inside++
          most = Math.max(most, inside)
          // The wait is the test: the holder keeps the lock across a turn of the event loop.
          await new Promise((r) => setTimeout(r, 2))
          inside--
        }),
      ),
    )
    expect(most).toBe(1)
    expect(() => statSync(`${file}.lock`)).toThrow()
  })

  it('releases the lock when the work throws', async () => {
    await expect(withFileLock(file, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await withFileLock(file, () => 'next')).toBe('next')
  })

  it('takes over a lock abandoned by a dead process (older than staleMs)', async () => {
    mkdirSync(`${file}.lock`)
    const old = new Date(Date.now() - 60_000)
    utimesSync(`${file}.lock`, old, old)
    expect(await withFileLock(file, () => 'taken', {staleMs: 10_000, waitMs: 10_000})).toBe('taken')
  })

  it('waits for a live holder, and gives up with a clear error (naming the lock) after waitMs', async () => {
    mkdirSync(`${file}.lock`)
    // Its waits on a clock that jumps through them: the 200 ms pass on the clock, not in real time.
    const clock = skippingClock()
    const started = clock.now()
    await expect(withFileLock(file, () => 'never', {staleMs: 60_000, waitMs: 200, clock: clock.forRuns()})).rejects.toMatchObject({
      code: 'config_locked',
      message: expect.stringContaining(`${file}.lock`),
    })
    expect(clock.now() - started).toBeGreaterThan(200)
  })
})

describe('withFileLock: a lock time in the future', () => {
  it('is stale once it has not changed for staleMs, as any abandoned lock (a future mtime would otherwise block every write)', async () => {
    mkdirSync(`${file}.lock`)
    const future = new Date(Date.now() + 3_600_000)
    utimesSync(`${file}.lock`, future, future)
    // The wait on a clock that jumps through it: staleMs passes on the clock, not in real time.
    const clock = skippingClock()
    const started = clock.now()
    expect(await withFileLock(file, () => 'taken', {staleMs: 300, waitMs: 10_000, clock: clock.forRuns()})).toBe('taken')
    // Taken after the normal wait (staleMs), not at once: a holder's own refresh is never a future time here.
    expect(clock.now() - started).toBeGreaterThan(300)
  })
})
