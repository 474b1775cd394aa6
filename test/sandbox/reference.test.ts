/**
 * The API reference page the sandbox serves (`/_reference/`: Swagger UI on /v1/openapi.json) in a
 * real browser (playwright-core driving Debian's Chromium), reached as a developer reaches it: the
 * `API reference:` line `svc sandbox serve` prints, and the inspector's navigation. Every operation
 * and webhook is on it; an operation is read; a status request is tried against the sandbox with
 * the sandbox key; nothing breaks the Content-Security-Policy (no inline script, nothing from
 * elsewhere); axe-core finds no serious violation.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {BIN, baseEnv} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {launchChromium} from '../helpers/documents.js'

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
type Violation = {id: string; impact?: string | null; nodes: Array<{target: string[]}>}

const temp = tempConfigDir()
let serve: ChildProcess
let out = ''
let browser: Browser
let page: Page
/** Whatever the browser says went wrong: CSP refusals, failed loads, script errors. */
const problems: string[] = []
/** Every URL the page asked for. */
const requested: string[] = []
/** The headers of each document the page was navigated to, by URL (the latest). */
const documents = new Map<string, Record<string, string>>()

const line = (label: string) => out.split('\n').find((l) => l.toUpperCase().startsWith(label.toUpperCase()))?.slice(label.length).trim() ?? ''

beforeAll(async () => {
  serve = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--rate-limit', '0'], {env: {...baseEnv(temp.dir), COLUMNS: '200'}, stdio: ['ignore', 'pipe', 'pipe']})
  serve.stdout!.on('data', (d: Buffer) => (out += d))
  const deadline = Date.now() + 60_000
  while (line('API reference:') === '') {
    if (Date.now() > deadline || serve.exitCode !== null) throw new Error(`serve printed no API reference line: ${out}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  browser = await launchChromium()
  page = await (await browser.newContext({viewport: {width: 1280, height: 900}})).newPage()
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('pageerror', (error) => problems.push(error.message))
  page.on('request', (request) => requested.push(request.url()))
  page.on('response', (response) => {
    if (response.request().isNavigationRequest()) documents.set(response.url(), response.headers())
  })
}, 90_000)

afterAll(async () => {
  await browser?.close()
  if (serve && serve.exitCode === null) {
    const ended = new Promise((resolve) => serve.once('close', resolve))
    serve.kill('SIGINT')
    await ended
  }
  temp.cleanup()
})

describe('the API reference page', {timeout: 90_000}, () => {
  it('is named by serve and by the inspector, and shows every operation and webhook of the description', async () => {
    const base = line('Base URL')
    expect(line('API reference:')).toBe(`${base}/_reference/`)
    // The inspector's navigation leads there.
    await page.goto(line('Inspector:'))
    await page.getByRole('link', {name: 'API reference'}).click()
    await page.waitForURL(`${base}/_reference/`)
    const doc = (await (await fetch(`${base}/v1/openapi.json`)).json()) as Record<string, any>
    const operations = Object.values<Record<string, unknown>>(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0)
    const webhooks = Object.keys(doc.webhooks).length
    await expect.poll(() => page.locator('.opblock').count(), {timeout: 30_000}).toBe(operations + webhooks)
    for (const name of Object.keys(doc.webhooks)) await expect.poll(() => page.getByText(name, {exact: true}).count()).toBeGreaterThan(0)
  })

  it('stays within the Content-Security-Policy, asks nothing of another origin, and passes axe', async () => {
    const base = line('Base URL')
    // The page as the inspector's link opened it (nothing expanded yet): its document's policy.
    expect(page.url()).toBe(`${base}/_reference/`)
    expect(documents.get(`${base}/_reference/`)?.['content-security-policy']).toContain("script-src 'self'")
    await expect.poll(() => page.locator('.opblock').count(), {timeout: 30_000}).toBeGreaterThan(0)
    expect(await page.locator('script:not([src])').count()).toBe(0)
    expect(problems).toEqual([])
    expect(requested.filter((url) => !url.startsWith(base) && !url.startsWith('data:'))).toEqual([])
    await page.evaluate(AXE_SOURCE)
    const violations = await page.evaluate<Violation[]>(
      'axe.run(document, {resultTypes: ["violations"]}).then((r) => r.violations.map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({target: n.target.map(String)}))})))',
    )
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    expect(serious.map((v) => `${v.id} ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  })

  it('reads an operation, then tries a status request against the sandbox with the sandbox key', async () => {
    const base = line('Base URL')
    const operation = page.locator('#operations-Payments-getPaymentStatus')
    await operation.locator('.opblock-summary').click()
    await expect.poll(() => operation.getByText('Poll every few seconds').count()).toBe(1)
    // Authorize with the key serve printed.
    await page.getByRole('button', {name: 'Authorize'}).first().click()
    await page.locator('.modal-ux input[type=text], .modal-ux input[type=password]').first().fill(line('Sandbox key'))
    await page.locator('.modal-ux').getByRole('button', {name: 'Apply credentials'}).click()
    await page.locator('.modal-ux').getByRole('button', {name: 'Close', exact: true}).click()
    await operation.getByRole('button', {name: 'Try it out'}).click()
    const example = (await operation.locator('input[placeholder=paymentId]').inputValue()) || 'none'
    expect(example).toMatch(/^svcpay_test_/)
    await operation.getByRole('button', {name: 'Execute'}).click()
    const live = operation.locator('.live-responses-table')
    await expect.poll(() => live.locator('tbody .response-col_status').first().textContent(), {timeout: 20_000}).toMatch(/200/)
    expect(await live.locator('tbody .response-col_description').first().textContent()).toContain('"status": "SUCCESS"')
    expect(requested).toContain(`${base}/v1/payments/${example}/status`)
    // Trying it stayed within the policy and asked nothing of another origin either.
    expect(problems).toEqual([])
    expect(requested.filter((url) => !url.startsWith(base) && !url.startsWith('data:'))).toEqual([])
  })

  it('speaks French to a French browser (its own words; Swagger UI stays English)', async () => {
    const base = line('Base URL')
    const french = await (await browser.newContext({locale: 'fr-FR'})).newPage()
    await french.goto(`${base}/_reference/`)
    expect(await french.getAttribute('html', 'lang')).toBe('fr')
    expect(await french.locator('#main > h1').textContent()).toBe('Référence de l’API')
    expect(await french.getByRole('link', {name: 'Inspecteur'}).count()).toBe(1)
    await french.context().close()
  })
})
