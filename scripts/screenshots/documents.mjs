// What the shop's customer sees (docs/images/invoice-pdf.png, checkout-page.png): a local sandbox
// with a business name and logo, an invoice created with svc (so it carries the profile's number,
// FAC-YYYY-0001) and published; its PDF drawn by poppler's pdftoppm, its checkout page photographed
// by Chromium at a phone's width. Run after `npm run build`: node scripts/screenshots/documents.mjs
import {execFileSync, spawn} from 'node:child_process'
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const BIN = join(ROOT, 'bin/run.cjs')
const dir = mkdtempSync(join(tmpdir(), 'svc-shots-'))
const env = {...process.env, SVC_CONFIG_DIR: join(dir, 'config'), SVC_RATE_LIMIT: '0', SVC_LANG: 'en'}
delete env.CI

const svc = (...args) => execFileSync(process.execPath, [BIN, ...args], {env, cwd: dir, stdio: ['ignore', 'pipe', 'ignore']}).toString()

const serve = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--settle-after', '0', '--json'], {env, stdio: ['ignore', 'pipe', 'ignore']})
await new Promise((resolve) => serve.stdout.once('data', resolve))
const {chromium} = await import('playwright-core')
const browser = await chromium.launch({executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu']})
try {
  // The logo: an orange disc, drawn by Chromium.
  const logo = join(dir, 'logo.png')
  const drawing = await browser.newPage({viewport: {width: 120, height: 120}})
  await drawing.setContent('<body style="margin:0"><div style="width:120px;height:120px;border-radius:50%;background:#d07a1f"></div></body>')
  await drawing.screenshot({path: logo, omitBackground: true})
  await drawing.close()
  svc('sandbox', 'business', 'set', '--name', 'Boulangerie Awa', '--logo', logo)

  const invoice = JSON.parse(
    svc('invoice', 'create', '--customer-name', 'Jean Mbarga', '--email', 'jean@example.cm', '--phone', '670000001', '--due-date', '30d',
      '--item', 'Croissant:350:12', '--item', 'Wedding cake, three tiers:45000:1', '--item', 'Pain de campagne:500:6',
      '--discount', '10', '--notes', 'Delivery on Saturday morning.', '--publish', '--json'),
  )
  const pdf = join(dir, 'invoice.pdf')
  svc('invoice', 'pdf', invoice.id, '-o', pdf)
  execFileSync('pdftoppm', ['-r', '80', '-png', '-singlefile', '-f', '1', '-l', '1', pdf, join(ROOT, 'docs/images/invoice-pdf')])
  console.log(join(ROOT, 'docs/images/invoice-pdf.png'))

  const page = await browser.newPage({viewport: {width: 420, height: 900}, deviceScaleFactor: 1})
  await page.goto(invoice.checkout_url)
  await page.screenshot({path: join(ROOT, 'docs/images/checkout-page.png'), fullPage: true})
  console.log(join(ROOT, 'docs/images/checkout-page.png'))
} finally {
  await browser.close()
  serve.kill('SIGINT')
  await new Promise((resolve) => serve.once('exit', resolve))
  rmSync(dir, {recursive: true, force: true})
}
