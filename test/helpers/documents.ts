/**
 * Reading what the sandbox renders with tools independent of ours: poppler's pdftotext for PDFs,
 * Debian's Chromium (driven by playwright-core) for pages. CI installs both (.ci/run).
 */
import {execFileSync} from 'node:child_process'
import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import type {Browser} from 'playwright-core'

/** The text of a PDF file (`layout`: keep the page's columns, as pdftotext -layout does). */
export function pdfFileText(file: string, options: {layout?: boolean} = {}): string {
  const args = options.layout === false ? [file, '-'] : ['-layout', '-enc', 'UTF-8', file, '-']
  return execFileSync('/usr/bin/pdftotext', args, {encoding: 'utf8'})
}

/** The text of PDF bytes (written to a temp file for pdftotext, then removed). */
export function pdfText(bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pdf-'))
  try {
    const file = join(dir, 'invoice.pdf')
    writeFileSync(file, bytes)
    return pdfFileText(file)
  } finally {
    rmSync(dir, {recursive: true, force: true})
  }
}

/** Headless Debian Chromium, with no network of its own (the machine has none). */
export async function launchChromium(): Promise<Browser> {
  const {chromium} = await import('playwright-core')
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  })
}

/**
 * One Chromium for a test file, as a vitest fixture launched by the first test that asks for it:
 * `test.extend<{browser: Browser}>({browser: [fileBrowser, {scope: 'file'}]})`.
 */
// eslint-disable-next-line no-empty-pattern
export async function fileBrowser({}: object, use: (browser: Browser) => Promise<void>): Promise<void> {
  const browser = await launchChromium()
  try {
    await use(browser)
  } finally {
    await browser.close()
  }
}
