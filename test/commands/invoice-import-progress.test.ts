/**
 * The import's progress on a terminal, as a person sees it (a terminal 80 columns wide, what it
 * received replayed on a screen): the bar has a status line of its own under it saying what the
 * run waits for (a 429, a 503), counting down, in English and in French, and no text is ever
 * glued to the bar's line. The runs are in-process on a skipping test clock (test/helpers/clock.ts):
 * the service's Retry-After waits and the countdown's seconds pass on it, not in real time.
 */
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {skippingClock} from '../helpers/clock.js'
import {startFaultProxy} from '../helpers/fault-proxy.js'
import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {Screen} from '../helpers/screen.js'
import {importCsv} from './invoice-helpers.js'

// The file's sandbox (each test puts a fault proxy of its own in front of it), a config dir
// (test/helpers/fixtures.ts) and a work dir per test.
const it = withSandbox({settleAfterMs: 0}).extend<{work: string}>({
  // eslint-disable-next-line no-empty-pattern
  work: async ({}, use) => {
    const work = mkdtempSync(join(tmpdir(), 'svc-progress-'))
    try {
      await use(work)
    } finally {
      rmSync(work, {recursive: true, force: true})
    }
  },
})

/** Every screen the output went through, one per redraw (split before each carriage return). */
function screens(output: string, cols: number): string[][] {
  const screen = new Screen(cols)
  const out: string[][] = []
  for (const part of output.split(/(?=\r)/)) {
    screen.write(part)
    out.push(screen.text())
  }
  return out
}

const BAR = /^\[[#-]+\] \d+\/\d+ \(\d+ (failed|en échec)\)/

for (const lang of ['en', 'fr'] as const) {
  describe(`invoice import progress on a terminal (${lang})`, () => {
    it('a status line of its own for a 429 and a 503, counting down; nothing glued to the bar', async ({sandbox: sb, temp, work}) => {
      const retry = (status: number) => ({kind: 'status' as const, status, body: JSON.stringify({message: 'wait', code: status === 429 ? 'rate_limited' : 'unavailable'}), headers: {'retry-after': '3'}})
      const proxy = await startFaultProxy(sb.sb.url, [
        {method: 'POST', path: /^\/v1\/invoices$/, fault: retry(429)},
        {method: 'POST', path: /^\/v1\/invoices$/, fault: retry(503), every: 3},
      ])
      try {
        const file = join(work, 'rows.csv')
        writeFileSync(file, importCsv(6, `Progress ${lang}`))
        const clock = skippingClock()
        const start = clock.now()
        const run = await runInProcess(['invoice', 'import', file, '--concurrency', '1', '--lang', lang], {
          configDir: temp.dir,
          env: {SVC_API_KEY: sb.sb.keys.sandbox, SVC_BASE_URL: proxy.url, SVC_RATE_LIMIT: '0'},
          terminal: {columns: 80},
          clock,
        })
        expect(run.exitCode, run.screen).toBe(0)
        expect(run.screen).toBeDefined()
        expect(proxy.injected()).toBe(2)
        // Both waits of 3 s went by, on the run's clock.
        expect(clock.now() - start).toBeGreaterThanOrEqual(6000)
        const frames = screens(run.screen!, 80)
        // The bar's line holds the bar alone, on every screen the person saw.
        for (const lines of frames) for (const line of lines.filter((l) => BAR.test(l))) expect(line.replace(BAR, '')).toBe('')
        // Under the bar: the reason and a countdown, for the 429 and for the 503.
        const under = new Set<string>()
        for (const lines of frames) lines.forEach((line, i) => BAR.test(line) && lines[i + 1] && under.add(lines[i + 1]!))
        const said = [...under].join('\n')
        if (lang === 'en') {
          expect(said).toMatch(/the service asked to slow down \(429\): retrying in 3 s/)
          expect(said).toMatch(/the service asked to slow down \(429\): retrying in [12] s/)
          expect(said).toMatch(/the service answered 503: retrying in 3 s/)
        } else {
          expect(said).toMatch(/le service demande de ralentir \(429\) : nouvel essai dans 3 s/)
          expect(said).toMatch(/le service a répondu 503 : nouvel essai dans [123] s/)
        }
        // The last screen: the finished bar, no status left under it, then the summary.
        const last = frames.at(-1)!
        const barAt = last.findIndex((l) => BAR.test(l))
        expect(last[barAt]).toMatch(/6\/6/)
        expect(last[barAt + 1]).not.toMatch(/retry|essai|attente|waiting/)
      } finally {
        await proxy.close()
      }
    }, 90_000)
  })
}

describe('invoice import waits off a terminal', () => {
  it('one line per wait, a 429 and a 503 told apart', async ({sandbox: sb, temp, work}) => {
    const retry = (status: number) => ({kind: 'status' as const, status, body: JSON.stringify({message: 'wait', code: 'x'}), headers: {'retry-after': '2'}})
    const proxy = await startFaultProxy(sb.sb.url, [
      {method: 'POST', path: /^\/v1\/invoices$/, fault: retry(429)},
      {method: 'POST', path: /^\/v1\/invoices$/, fault: retry(503), every: 2},
    ])
    try {
      const file = join(work, 'lines.csv')
      writeFileSync(file, importCsv(3, 'Lines'))
      const clock = skippingClock()
      const start = clock.now()
      const r = await sb.cli(temp.dir, 'sandbox', runInProcess)(['invoice', 'import', file, '--concurrency', '1'], {env: {SVC_BASE_URL: proxy.url}, clock})
      expect(r.exitCode, r.stderr).toBe(0)
      expect(clock.now() - start).toBeGreaterThanOrEqual(4000)
      expect(r.stderr).toMatch(/asked to slow down \(429\)[^\n]*retrying in 2 s/)
      expect(r.stderr).toMatch(/answered 503[^\n]*retrying in 2 s/)
    } finally {
      await proxy.close()
    }
  }, 60_000)
})
