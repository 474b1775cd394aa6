/**
 * Issue 19, point 4: the import progress bar froze on `1/40` while 20 rows were done, because ticks
 * inside its 100 ms redraw interval were dropped and nothing came after them during a rate-limit
 * wait. Every tick must reach the screen within the interval.
 */
import {PassThrough} from 'node:stream'
import {afterEach, describe, expect, it, vi} from 'vitest'

import {progressBar} from '../../../src/lib/invoices/progress.js'
import {IO} from '../../../src/lib/io/terminal.js'

afterEach(() => {
  vi.useRealTimers()
})

describe('import progress bar', () => {
  it('a burst of ticks is drawn within 100 ms, even when nothing follows it', async () => {
    // The bar's clock and timers are the test's: 100 ms pass exactly, however busy the machine.
    vi.useFakeTimers({toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date']})
    const stderr = new PassThrough()
    let screen = ''
    stderr.on('data', (d) => (screen += d))
    const io = new IO({stdin: new PassThrough(), stdout: new PassThrough(), stderr}, {interactive: true, json: false, color: false})
    const bar = progressBar(io, 40, (done, total) => `${done}/${total}`)
    for (let i = 0; i < 20; i++) bar.tick(false)
    vi.advanceTimersByTime(100)
    // What was written reaches the screen (the stream's own events).
    await new Promise((resolve) => setImmediate(resolve))
    const last = screen.split('\r').at(-1)
    expect(last).toContain('20/40')
    bar.done()
  })
})
