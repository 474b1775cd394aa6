// Screenshots of svc's tables in an 80-column terminal, in English and French (docs/images/
// tables-80-en.png, tables-80-fr.png): a local sandbox seeded with payments and invoices, the
// commands typed in a real tmux pane 80 columns wide, the pane captured with its colours, drawn
// as HTML and photographed by Chromium. Run after `npm run build`: node scripts/screenshots/tables.mjs
import {execFileSync, spawn} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const BIN = join(ROOT, 'bin/run.cjs')
const COLS = 80
const dir = mkdtempSync(join(tmpdir(), 'svc-shots-'))
const env = {...process.env, SVC_CONFIG_DIR: join(dir, 'config'), SVC_RATE_LIMIT: '0'}
delete env.NO_COLOR
delete env.CI

const svc = (...args) => execFileSync(process.execPath, [BIN, ...args], {env, stdio: ['ignore', 'pipe', 'ignore']}).toString()

// A sandbox of its own, as a developer runs it; its `local` profile is current.
const serve = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--settle-after', '0', '--json'], {env, stdio: ['ignore', 'pipe', 'ignore']})
await new Promise((resolve) => serve.stdout.once('data', resolve))
try {
  for (const phone of ['670000001', '670000099', '690000001', '650000099']) svc('pay', 'create', '--amount', '12500', '--phone', phone, '--json')
  const invoices = [
    ['Boulangerie Awa et Fils, Marché Central de Douala', '2026-12-31', 'Pain de campagne:500:30'],
    ['Quincaillerie du Port de Bonabéri', '2026-10-15', 'Clous 5 cm:1500:12'],
    ['Ndolo', '2026-11-10', 'Gâteau:25000:5'],
  ]
  for (const [name, due, item] of invoices) svc('invoice', 'create', '--customer-name', name, '--due-date', due, '--item', item, '--publish', '--json')

  const {chromium} = await import('playwright-core')
  const browser = await chromium.launch({executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu']})
  try {
    for (const lang of ['en', 'fr']) {
      const screen = capture(lang, ['svc pay list', 'svc invoice list', 'svc report receivables'])
      const page = await browser.newPage({viewport: {width: 900, height: 400}, deviceScaleFactor: 1})
      await page.setContent(html(screen))
      const out = join(ROOT, 'docs/images', `tables-${COLS}-${lang}.png`)
      await page.locator('pre').screenshot({path: out})
      await page.close()
      console.log(out)
    }
  } finally {
    await browser.close()
  }
} finally {
  serve.kill('SIGINT')
  await new Promise((resolve) => serve.once('exit', resolve))
  rmSync(dir, {recursive: true, force: true})
}

/** The commands typed in a tmux pane COLS wide, and the pane as it then shows (with its colours). */
function capture(lang, commands) {
  const session = `svc-shots-${lang}`
  const shellEnv = {...env, SVC_LANG: lang, PS1: '$ ', PATH: `${join(dir, 'bin')}:${env.PATH}`, TERM: 'xterm-256color'}
  delete shellEnv.TMUX
  // A tmux server of our own (its socket in our temp dir), started with the shell's environment.
  const tmux = (...args) => execFileSync('tmux', ['-S', join(dir, 'tmux.sock'), ...args], {env: shellEnv}).toString()
  execFileSync('mkdir', ['-p', join(dir, 'bin')])
  writeFileSync(join(dir, 'bin', 'svc'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, {mode: 0o755})
  tmux('-f', '/dev/null', 'new-session', '-d', '-s', session, '-x', String(COLS), '-y', '80', 'env', `PS1=$ `, 'sh')
  try {
    const pane = () => tmux('capture-pane', '-p', '-t', session)
    // One command at a time, each once the prompt is back (keys typed ahead would be echoed among the output).
    const prompt = () => {
      const deadline = Date.now() + 60_000
      while (pane().trimEnd().split('\n').at(-1) !== '$') {
        if (Date.now() > deadline) throw new Error(`no prompt:\n${pane()}`)
        execFileSync('sleep', ['0.2'])
      }
    }
    prompt()
    for (const command of commands) {
      tmux('send-keys', '-t', session, command, 'Enter')
      execFileSync('sleep', ['0.3'])
      prompt()
    }
    return tmux('capture-pane', '-p', '-e', '-t', session).trimEnd().replace(/\n\$$/, '')
  } finally {
    tmux('kill-session', '-t', session)
  }
}

/** The pane's text as HTML: the SGR codes svc writes (bold, dim, red, green, yellow, cyan, grey) as styles. */
function html(screen) {
  const colours = {31: '#e06c75', 32: '#98c379', 33: '#e5c07b', 36: '#56b6c2', 90: '#7f848e'}
  let out = ''
  let style = {}
  const open = () => {
    const css = [style.bold && 'font-weight:bold', style.dim && 'opacity:0.6', style.color && `color:${style.color}`].filter(Boolean).join(';')
    return css ? `<span style="${css}">` : '<span>'
  }
  out += open()
  for (const part of screen.split(/(\u001b\[[0-9;]*m)/)) {
    const sgr = /^\u001b\[([0-9;]*)m$/.exec(part)
    if (!sgr) {
      out += part.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')
      continue
    }
    for (const code of (sgr[1] || '0').split(';').map(Number)) {
      if (code === 0) style = {}
      else if (code === 1) style.bold = true
      else if (code === 2) style.dim = true
      else if (code === 22) style.bold = style.dim = false
      else if (code === 39) style.color = undefined
      else if (colours[code]) style.color = colours[code]
    }
    out += `</span>${open()}`
  }
  out += '</span>'
  return `<!doctype html><meta charset="utf-8"><style>body{margin:0;background:#1e1e1e}pre{display:inline-block;margin:0;padding:12px 14px;background:#1e1e1e;color:#dcdfe4;font:14px/1.25 "DejaVu Sans Mono",monospace;width:${COLS}ch;white-space:pre}</style><pre>${out}</pre>`
}
