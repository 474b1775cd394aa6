/**
 * `svc sandbox business set --name --logo` against a running `svc sandbox serve`: the customer's
 * PDF (read with pdftotext), the checkout page (in Chromium) and the delivery texts show the
 * business's own name and logo, no longer "Sandbox Business".
 */
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {PNG} from 'pngjs'
import type {Browser} from 'playwright-core'
import {describe, expect} from 'vitest'

import {launchChromium, pdfFileText} from '../helpers/documents.js'
import {test} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {startServe} from '../helpers/sandbox.js'

// A config dir (test/helpers/fixtures.ts) with `svc sandbox serve` running on it (a child process:
// the commands find it as they find a developer's, through the state it leaves in the config dir),
// stopped after the test; `cli`: the commands in-process against it; `browser`: Chromium, closed after.
const it = test.extend<{cli: (args: string[]) => ReturnType<typeof runInProcess>; browser: () => Promise<Browser>}>({
  cli: async ({temp}, use) => {
    const served = await startServe(temp.dir)
    try {
      await use((args) => runInProcess(args, {configDir: temp.dir, env: {SVC_RATE_LIMIT: '0'}}))
    } finally {
      await served.stop()
    }
  },
  // eslint-disable-next-line no-empty-pattern
  browser: async ({}, use) => {
    let browser: Browser | undefined
    try {
      await use(async () => (browser ??= await launchChromium()))
    } finally {
      await browser?.close()
    }
  },
})

/** A 64×64 orange disc on white. */
function logoPng(): Buffer {
  const png = new PNG({width: 64, height: 64})
  for (let y = 0; y < 64; y++)
    for (let x = 0; x < 64; x++) {
      const i = (y * 64 + x) * 4
      const inside = (x - 32) ** 2 + (y - 32) ** 2 < 28 ** 2
      png.data.set(inside ? [214, 120, 30, 255] : [255, 255, 255, 255], i)
    }
  return PNG.sync.write(png)
}

describe('svc sandbox business set --name --logo', {timeout: 120_000}, () => {
  it('refuses a logo that is not a PNG or JPEG, changing nothing; then the PDF, checkout page and texts show the name and logo', async ({temp, cli, browser}) => {
    const fake = join(temp.dir, '..', 'fake.png')
    writeFileSync(fake, 'not an image at all')
    const bad = await cli(['sandbox', 'business', 'set', '--name', 'Should Not Stick', '--logo', fake])
    expect(bad.exitCode).toBe(2)
    expect(bad.stderr).toContain('logo')
    expect(JSON.parse((await cli(['sandbox', 'business', 'show', '--json'])).stdout).name).toBe('Sandbox Business')

    const logo = join(temp.dir, '..', 'logo.png')
    writeFileSync(logo, logoPng())
    const set = await cli(['sandbox', 'business', 'set', '--name', 'Boulangerie Awa', '--logo', logo, '--json'])
    expect(set.exitCode, set.stderr).toBe(0)
    expect(JSON.parse(set.stdout)).toMatchObject({name: 'Boulangerie Awa', logo: {content_type: 'image/png'}})

    const created = await cli(['invoice', 'create', '--profile', 'local', '--customer-name', 'Jean', '--email', 'jean@example.cm', '--due-date', '2099-12-31', '--item', 'Pain:500:3', '--publish', '--channel', 'EMAIL', '--json'])
    expect(created.exitCode, created.stderr).toBe(0)
    const invoice = JSON.parse(created.stdout) as {id: string; checkout_url: string}

    const file = join(temp.dir, '..', 'invoice.pdf')
    expect((await cli(['invoice', 'pdf', invoice.id, '--profile', 'local', '-o', file])).exitCode).toBe(0)
    const text = pdfFileText(file)
    expect(text).toContain('Boulangerie Awa')
    expect(text).not.toContain('Sandbox Business')

    const outbox = JSON.parse((await cli(['sandbox', 'outbox', '--invoice', invoice.id, '--json'])).stdout)
    expect(outbox[0].text).toContain('Boulangerie Awa')

    const tab = await (await browser()).newPage({viewport: {width: 420, height: 900}})
    await tab.goto(invoice.checkout_url)
    expect(await tab.title()).toContain('Boulangerie Awa')
    await expect.poll(() => tab.locator('body').innerText()).toContain('Boulangerie Awa')
    expect(await tab.locator('body').innerText()).not.toContain('Sandbox Business')
    // The logo is served and decoded by the browser (not a broken image).
    expect(await tab.locator('img.logo').evaluate((img) => (img as unknown as {complete: boolean; naturalWidth: number}).complete && (img as unknown as {naturalWidth: number}).naturalWidth)).toBe(64)
    if (process.env.SVC_SCREENSHOTS) await tab.screenshot({path: process.env.SVC_SCREENSHOTS, fullPage: true})
  })
})
