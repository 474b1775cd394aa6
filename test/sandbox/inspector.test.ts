/**
 * The web inspector in a real browser (playwright-core driving Debian's Chromium), against
 * `svc sandbox serve` run as a developer runs it (a child process, its human output): log in with
 * the `Inspector:` link it prints, watch a request appear live, answer a LIVE payment on the
 * customer's handset with the PIN and see `payment.success` reach `svc webhooks listen`, read an
 * outbox email, revoke a key, a hostile customer name shown as text, an accessibility pass
 * (axe-core), 360 px wide, French. Screenshots go to docs/images/inspector-*.png with
 * SVC_UPDATE_DOC_IMAGES=1.
 */
import {spawn, type ChildProcess} from 'node:child_process'
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {fileURLToPath} from 'node:url'
import type {Browser, BrowserContext, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {BIN, baseEnv, runCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {launchChromium} from '../helpers/documents.js'
import {startReceiver} from '../helpers/receiver.js'

/**
 * axe-core's violations on a page. The script is evaluated through the DevTools protocol (as
 * @axe-core/playwright does, which needs Node 22), so the page's CSP, which forbids inline and
 * injected scripts, does not stop it. Every rule runs; only the violations are gathered whole
 * (`resultTypes`: axe then keeps one node of the other results, its documented way to run faster).
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
async function axeViolations(page: Page): Promise<Array<{id: string; impact?: string | null; nodes: Array<{target: string[]}>}>> {
  await page.evaluate(AXE_SOURCE)
  type Violation = {id: string; impact?: string | null; nodes: Array<{target: string[]}>}
  return page.evaluate<Violation[]>(
    'axe.run(document, {resultTypes: ["violations"]}).then((r) => r.violations.map((v) => ({id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({target: n.target.map(String)}))})))',
  )
}

const IMAGES = fileURLToPath(new URL('../../docs/images/', import.meta.url))
const temp = tempConfigDir()
let serve: ChildProcess
let out = ''
let browser: Browser
let context: BrowserContext
let page: Page
const served = {url: '', sandboxKey: '', liveKey: '', inspector: ''}
const children: ChildProcess[] = []
const closers: Array<() => Promise<unknown>> = []
const dialogs: string[] = []

/** What `serve` printed on the line starting with `label`. */
const line = (label: string) => out.split('\n').find((l) => l.toUpperCase().startsWith(label.toUpperCase()))?.slice(label.length).trim() ?? ''

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function api(method: string, path: string, body?: unknown, key = served.sandboxKey) {
  const response = await fetch(`${served.url}${path}`, {
    method,
    headers: {'x-api-key': key, ...(body === undefined ? {} : {'content-type': 'application/json'})},
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return {status: response.status, body: (await response.json()) as any}
}

/**
 * A screenshot of the page as it stands: written to docs/images/inspector-NAME.png when
 * SVC_UPDATE_DOC_IMAGES=1 (how the docs' pictures are renewed), else only taken (a run of the
 * suite leaves the tree as it was).
 */
async function shot(name: string): Promise<void> {
  const png = await page.screenshot({fullPage: true})
  expect(png.subarray(1, 4).toString('latin1'), name).toBe('PNG')
  if (process.env.SVC_UPDATE_DOC_IMAGES === '1') writeFileSync(`${IMAGES}inspector-${name}.png`, png)
}

beforeAll(async () => {
  mkdirSync(IMAGES, {recursive: true})
  serve = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--settle-after', '200ms', '--rate-limit', '0'], {
    env: {...baseEnv(temp.dir), COLUMNS: '200'},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  serve.stdout!.on('data', (d: Buffer) => (out += d))
  await until(() => line('Inspector:') !== '', 'the Inspector: line', 60_000)
  served.url = line('Base URL')
  served.sandboxKey = line('Sandbox key')
  served.liveKey = line('Live key')
  served.inspector = line('Inspector:')
  browser = await launchChromium()
  context = await browser.newContext({viewport: {width: 1280, height: 900}})
  page = await context.newPage()
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
}, 90_000)

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL')
  for (const close of closers) await close()
  await browser?.close()
  if (serve && serve.exitCode === null) {
    const ended = new Promise((resolve) => serve.once('close', resolve))
    serve.kill('SIGINT')
    await ended
  }
  temp.cleanup()
})

describe('the web inspector', {timeout: 90_000}, () => {
  it('logs in once with the printed link: an HttpOnly, SameSite=Strict cookie; the link does not work twice; CSP without inline scripts', async () => {
    expect(served.inspector).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_inspector\/login\?code=[\w-]+$/)
    expect(out).toMatch(/^Inspector: http:\/\/127\.0\.0\.1:\d+\/_inspector\/login\?code=/m)
    const response = await page.goto(served.inspector)
    expect(page.url()).toBe(`${served.url}/_inspector/`)
    const csp = response!.headers()['content-security-policy']
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toContain('unsafe-inline')
    await expect.poll(() => page.getByRole('heading', {name: 'Requests', level: 1}).count()).toBe(1)
    const [cookie] = await context.cookies()
    expect(cookie).toMatchObject({name: 'svc_inspector', httpOnly: true, sameSite: 'Strict'})
    expect(await page.locator('script:not([src])').count()).toBe(0)

    // Used: a second browser gets nothing with the same link, nor the admin surface without it.
    const other = await browser.newContext()
    const again = await (await other.newPage()).goto(served.inspector)
    expect(again!.status()).toBe(401)
    expect((await other.request.get(`${served.url}/_admin/requests`)).status()).toBe(401)
    await other.close()

    // A state-changing request with the cookie but without the session's CSRF token is refused.
    const forged = await page.evaluate(async () => (await fetch('/_admin/keys', {method: 'POST', headers: {'content-type': 'application/json'}, body: '{"environment":"SANDBOX"}'})).status)
    expect(forged).toBe(401)
  })

  it('shows a request as it happens, whole, as curl, and replays it', async () => {
    await page.goto(`${served.url}/_inspector/#/requests`)
    await expect.poll(() => page.locator('[data-live="on"]').count()).toBe(1)
    // The indicator of live updates does not read as the LIVE environment.
    expect(await page.locator('#live').textContent()).toBe('Auto-updating')
    const created = await api('POST', '/v1/payments', {amount: 4321, phone_number: '670000001', operator: 'MTN'})
    expect(created.status).toBe(201)
    const row = page.locator('tbody tr', {hasText: '/v1/payments'}).filter({hasText: '201'}).first()
    await row.waitFor({timeout: 20_000})
    await shot('requests')
    const link = row.getByRole('link').first()
    const href = (await link.getAttribute('href'))!
    await link.click()
    // A live update may redraw the table under the click (the payment settling): as a person
    // would, click the same request's link again until its address is the page's.
    await expect
      .poll(
        async () => {
          if (!page.url().endsWith(href)) await page.locator(`a[href="${href}"]`).first().click({timeout: 5_000}).catch(() => undefined)
          return page.url()
        },
        {timeout: 30_000},
      )
      .toMatch(/#\/requests\/req_\d+$/)
    const detail = page.locator('#detail')
    await expect.poll(() => detail.count(), {timeout: 30_000}).toBe(1)
    await expect.poll(() => detail.textContent()).toContain('4321')
    // The request has its own address.
    expect(page.url()).toMatch(/\/_inspector\/#\/requests\/req_\d+$/)
    await detail.getByRole('button', {name: 'Copy as curl'}).click()
    const curl = await detail.locator('.command').textContent()
    expect(curl).toContain(`curl -X POST '${served.url}/v1/payments'`)
    expect(curl).toContain('$SVC_API_KEY')
    expect(curl).not.toContain(served.sandboxKey)
    await detail.getByRole('button', {name: 'Copy as svc api'}).click()
    expect(await detail.locator('.command').textContent()).toContain('svc api POST /v1/payments --data')
    await shot('request')
    const before = (await api('GET', '/v1/payments?limit=1')).body.total
    await detail.getByRole('button', {name: 'Replay'}).click()
    await expect.poll(async () => (await api('GET', '/v1/payments?limit=1')).body.total).toBe(before + 1)
  })

  it('rings the customer’s handset for a LIVE payment: PIN 1234 approves, and payment.success reaches webhooks listen', async () => {
    // The developer's app, behind `svc webhooks listen` as in the quickstart.
    const app = await startReceiver()
    closers.push(() => app.close())
    const listen = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--forward-to', app.url], {
      env: {...baseEnv(temp.dir), SVC_API_KEY: served.liveKey, SVC_BASE_URL: served.url, SVC_RATE_LIMIT: '0'},
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.push(listen)
    let heard = ''
    let said = ''
    listen.stdout!.on('data', (d: Buffer) => (heard += d))
    listen.stderr!.on('data', (d: Buffer) => (said += d))
    await until(() => /Ctrl-C/.test(said), 'webhooks listen to be ready', 30_000)

    const {body: payment} = await api('POST', '/v1/payments', {amount: 2500, phone_number: '690000002', operator: 'ORANGE'}, served.liveKey)
    await page.goto(`${served.url}/_inspector/#/phone`)
    const handset = page.locator('.handset', {hasText: payment.id.slice(-6)})
    await handset.waitFor({timeout: 20_000})
    const text = await handset.textContent()
    expect(text).toContain('ORANGE')
    expect(text).toContain('Sandbox Business')
    expect(text).toMatch(/2 500 XAF/)
    expect(text).toContain('1234')
    await shot('phone')
    await handset.getByLabel('PIN').fill('1234')
    await handset.getByRole('button', {name: 'Approve'}).click()
    await until(() => app.received.some((r) => r.event.type === 'payment.success' && (r.event.data as {id: string}).id === payment.id), 'payment.success forwarded by webhooks listen')
    await until(() => heard.includes('payment.success'), 'the line of webhooks listen')
    expect((await api('GET', `/v1/payments/${payment.id}/status`, undefined, served.liveKey)).body.status).toBe('SUCCESS')

    // Three wrong PINs: the payment fails with a failure code of the contract.
    const {body: second} = await api('POST', '/v1/payments', {amount: 900, phone_number: '670000009', operator: 'MTN'}, served.liveKey)
    const other = page.locator('.handset', {hasText: second.id.slice(-6)})
    await other.waitFor({timeout: 20_000})
    for (let i = 0; i < 3; i++) {
      await other.getByLabel('PIN').fill('0000')
      await other.getByRole('button', {name: 'Approve'}).click()
      // Said on the handset, under the PIN typed.
      if (i < 2) await expect.poll(() => other.locator('.pin-note[role="alert"]').textContent()).toContain(`${2 - i} tries left`)
      if (i === 0) await shot('phone-wrong-pin')
    }
    await expect.poll(async () => (await api('GET', `/v1/payments/${second.id}/status`, undefined, served.liveKey)).body).toMatchObject({status: 'FAILED', failure_code: 'ACCOUNT_INACTIVE'})
    await until(() => app.received.some((r) => r.event.type === 'payment.failed' && (r.event.data as {id: string}).id === second.id), 'payment.failed forwarded by webhooks listen')
  })

  it('shows the app’s requests, svc’s own with the toggle; a request, a payment and a message each open from their own address', async () => {
    // The app's request, then svc's own: a stand-in command, as a developer runs it.
    const created = await api('POST', '/v1/payments', {amount: 3131, phone_number: '670000001', operator: 'MTN'})
    const standIn = await runCli(['sandbox', 'fees', 'show'], {configDir: temp.dir, env: {SVC_RATE_LIMIT: '0'}})
    expect(standIn.exitCode, standIn.stderr).toBe(0)
    await page.goto(`${served.url}/_inspector/#/requests`)
    await page.locator('tbody tr', {hasText: '/v1/payments'}).first().waitFor({timeout: 20_000})
    expect(await page.locator('tbody tr', {hasText: '/_admin/fees'}).count()).toBe(0)
    await page.getByLabel('svc’s own requests too').check()
    const own = page.locator('tbody tr', {hasText: '/_admin/fees'}).first()
    await own.waitFor({timeout: 20_000})
    expect(await own.textContent()).toContain('an svc sandbox command')
    await shot('requests-all')
    await page.getByLabel('svc’s own requests too').uncheck()
    await expect.poll(() => page.locator('tbody tr', {hasText: '/_admin/fees'}).count()).toBe(0)

    // Deep links, opened in a fresh page as a pasted address would be.
    const href = await page.locator('tbody tr', {hasText: 'POST'}).filter({hasText: '/v1/payments'}).first().getByRole('link').getAttribute('href')
    expect(href).toMatch(/^#\/requests\/req_\d+$/)
    const fresh = await context.newPage()
    await fresh.goto(`${served.url}/_inspector/${href}`)
    await expect.poll(() => fresh.locator('#detail').textContent()).toContain('3131')
    await fresh.goto(`${served.url}/_inspector/#/payments/${created.body.id}`)
    await expect.poll(() => fresh.locator('#detail').textContent()).toContain(created.body.id)
    expect(await fresh.locator('#detail').textContent()).toContain('3131')
    await fresh.goto(`${served.url}/_inspector/#/requests/req_999999`)
    // Read while the page may be redrawn (a live update): the detail's text once there is one.
    const detailText = async () => ((await fresh.locator('#detail').count()) > 0 ? ((await fresh.locator('#detail').textContent({timeout: 5_000}).catch(() => '')) ?? '') : '')
    await expect
      .poll(detailText, {timeout: 30_000})
      .toContain('req_999999 is not here')
      .catch(async (error: Error) => {
        throw new Error(`${error.message}; the page showed: ${await fresh.locator('main').textContent()}`)
      })
    await fresh.close()
  })

  it('shows an outbox email as the customer reads it; a hostile customer name stays text everywhere', async () => {
    const hostile = '<img src=x onerror=alert(1)>'
    const draft = await api('POST', '/v1/invoices', {customer_name: hostile, customer_email: 'awa@example.cm', due_date: '2030-12-31', items: [{name: 'Savon', price: 1500, quantity: 2}]})
    expect(draft.status).toBe(201)
    expect((await api('POST', `/v1/invoices/${draft.body.id}/publish`, {channel: 'EMAIL'})).status).toBe(200)

    await page.goto(`${served.url}/_inspector/#/outbox`)
    const message = page.locator('tbody tr', {hasText: 'awa@example.cm'}).first()
    await message.waitFor({timeout: 20_000})
    await message.getByRole('link').first().click()
    const email = page.locator('.email')
    await email.waitFor()
    // The message has its own address: opened again from it, the same email.
    const address = page.url()
    expect(address).toMatch(/#\/outbox\/[\w-]+$/)
    const again = await context.newPage()
    await again.goto(address)
    await expect.poll(() => again.locator('.email').textContent()).toContain('awa@example.cm')
    await again.close()
    const text = (await email.textContent()) ?? ''
    expect(text).toContain('awa@example.cm')
    expect(text).toContain(hostile)
    expect(await email.locator('img.qr').count()).toBe(1)
    expect(await email.getByRole('link', {name: /Pay/}).getAttribute('href')).toContain('/pay/')
    await shot('outbox')

    await page.goto(`${served.url}/_inspector/#/payments`)
    await page.locator('tbody tr', {hasText: draft.body.id}).waitFor({timeout: 20_000})
    expect(await page.locator('tbody tr', {hasText: draft.body.id}).textContent()).toContain(hostile)
    await shot('payments')
    // A payment whole.
    await page.locator('tbody tr', {hasText: '4 321 XAF'}).first().getByRole('link').click()
    await expect.poll(() => page.locator('#detail').textContent()).toContain('internal_transaction_id')
    expect(await page.locator('img[src="x"]').count()).toBe(0)
    expect(dialogs).toEqual([])
  })

  it('creates a key (shown once) and revokes it: the API then refuses it', async () => {
    await page.goto(`${served.url}/_inspector/#/settings`)
    await page.getByRole('button', {name: 'Create a key'}).click()
    const shown = page.locator('.secret')
    await shown.waitFor()
    const secret = ((await shown.textContent()) ?? '').match(/svc_sk_test_\w+/)![0]
    expect((await api('GET', '/v1/payments?limit=1', undefined, secret)).status).toBe(200)
    const row = page.locator('tbody tr', {hasText: `…${secret.slice(-4)}`})
    await row.getByRole('button', {name: 'Revoke'}).click()
    await expect.poll(() => row.textContent()).toContain('revoked')
    expect((await api('GET', '/v1/payments?limit=1', undefined, secret)).status).toBe(401)
    await shot('settings')
  })

  it('passes axe with no serious violation on every page, fits 360 px, and speaks French', async () => {
    for (const name of ['requests', 'payments', 'phone', 'events', 'outbox', 'settings']) {
      await page.goto(`${served.url}/_inspector/#/${name}`)
      await page.locator('h1').waitFor()
      await page.waitForLoadState('networkidle').catch(() => undefined)
      const violations = await axeViolations(page)
      const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      expect(serious.map((v) => `${name}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
    }
    await page.setViewportSize({width: 360, height: 740})
    for (const name of ['requests', 'phone', 'settings']) {
      await page.goto(`${served.url}/_inspector/#/${name}`)
      await page.locator('h1').waitFor()
      expect(await page.evaluate('document.documentElement.scrollWidth'), name).toBeLessThanOrEqual(360)
    }
    await shot('mobile')
    await page.setViewportSize({width: 1280, height: 900})
    await page.getByLabel('Language', {exact: true}).selectOption('fr')
    await expect.poll(() => page.getByRole('heading', {level: 1}).textContent()).toBe('Réglages')
    expect(await page.getByRole('link', {name: 'Requêtes'}).count()).toBe(1)
    await page.getByLabel('Langue', {exact: true}).selectOption('en')
  })
})
