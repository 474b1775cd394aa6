/**
 * The catalogue test of a French session: the main commands driven in French against a local
 * sandbox (payments that succeed and fail, invoices drafted, published, overdue, imported and
 * reminded, reports, the walkthrough), and everything a person reads (stdout and stderr, --json
 * aside) scanned for what would betray an English or machine form: a status word (PENDING, DRAFT,
 * …), an ISO date (2026-12-31), or a plural that does not agree (« 1 factures », « 0 lignes »).
 */
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {skippingClock} from '../helpers/clock.js'
import {withSandbox} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'

// The file's sandbox and the runs on one clock that jumps through the runs' waits (a watch's
// interval, the walkthrough's settlements), firing the sandbox's settlements on the way: a watch
// takes no real time.
const it = withSandbox({clock: skippingClock()})

const DAY = 86_400_000
const STATUS = /\b(PENDING|SUCCESS|FAILED|UNSPECIFIED|DRAFT|UNPAID|PAST_DUE|PAID|CANCELLED)\b/g
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/g
// In French 0 and 1 take the singular: « 1 factures », « 0 lignes », « 1 paiements récupérés ».
const WRONG_PLURAL = /(?<!\d[ \u00a0\u202f])\b[01] (?!(?:cas|fois|FCFA)\b)[a-zàâçéèêëîïôûù]+s\b/g

/** Each French run: the command line and what a person read. */
const seen: {args: string[]; text: string}[] = []

function offences(text: string): string[] {
  // What the person typed or copies as is: commands and flags in backquotes or after a flag name,
  // ids, URLs; the failure code itself (a stable code, explained by its sentence).
  const cleaned = text
    .replace(/`[^`]*`/g, '')
    .replace(/--(?:status|outcome|then|due-date|due-before|due-after)[ =]\S+/g, '')
    .replace(/https?:\/\/\S+/g, '')
    .replace(/\b(?:svcpay|inv|evt|txn|file)_\w+/g, '')
  return [...cleaned.matchAll(STATUS), ...cleaned.matchAll(ISO_DATE), ...cleaned.matchAll(WRONG_PLURAL)].map((m) => m[0])
}

describe('French human output', {timeout: 180_000}, () => {
  it('the scan finds what it looks for', () => {
    expect(offences('Facture inv_test_abc créée (DRAFT)')).toEqual(['DRAFT'])
    expect(offences('Créances au 2026-12-31 : 1 factures ouvertes')).toEqual(['2026-12-31', '1 factures'])
    expect(offences('0 lignes en échec ; 1 500 FCFA ; 1 cas réussi ; `svc pay list --status FAILED`')).toEqual(['0 lignes'])
  })

  it('holds no status word, ISO date or wrong plural across the main commands', async ({sandbox: sb, temp}) => {
    // The commands in-process, on the file's sandbox (payments settle after 200 ms of its time) and this test's config dir.
    const fr = async (args: string[], extra: Record<string, string | undefined> = {}): Promise<string> => {
      const r = await sb.cli(temp.dir, 'sandbox', runInProcess)([...args, '--lang', 'fr'], {env: extra})
      seen.push({args, text: `${r.stdout}\n${r.stderr}`})
      return r.stdout + r.stderr
    }
    const importFile = join(temp.dir, '..', 'une-ligne.csv')
    writeFileSync(importFile, 'customer_name,due_date,items,customer_email\nAwa,31/12/2026,Pain:500:3,awa@example.cm\n')

    await fr(['sandbox', 'numbers'])
    const admin = {SVC_SANDBOX_URL: sb.sb.adminUrl, SVC_SANDBOX_ADMIN_TOKEN: sb.sb.adminToken}
    await fr(['sandbox', 'numbers', 'set', '670112233', '--operator', 'MTN', '--outcome', 'UNSPECIFIED', '--then', 'FAILED', '--after', '1s', '--failure-code', 'INSUFFICIENT_FUNDS'], admin)
    await fr(['sandbox', 'numbers', 'list'], admin)
    await fr(['pay', 'create', '--amount', '5000', '--phone', '670000001'])
    await fr(['pay', 'create', '--amount', '2500', '--phone', '650000099', '--watch', '--interval', '250ms'])
    const paid = /(svcpay_test_\w+)/.exec(await fr(['pay', 'create', '--amount', '1500', '--phone', '670000002', '--watch', '--interval', '250ms']))![1]!
    await fr(['pay', 'status', paid])
    await fr(['pay', 'list'])
    await fr(['pay', 'create', '--amount', '1500', '--phone', '670000001', '--dry-run'])
    const draft = /(inv_test_\w+)/.exec(await fr(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '31/12/2026', '--item', 'Pain:500:3']))![1]!
    await fr(['invoice', 'get', draft])
    await fr(['invoice', 'publish', draft])
    await fr(['invoice', 'create', '--customer-name', 'Bia', '--email', 'bia@example.cm', '--due-date', '10j', '--item', 'Gâteau:2500:1', '--publish'])
    await fr(['invoice', 'create', '--customer-name', 'Awa', '--due-date', '2026-12-31', '--item', 'Pain:500:3', '--publish', '--dry-run'])
    await fr(['invoice', 'import', importFile, '--dry-run'])
    await fr(['invoice', 'import', importFile])
    await fr(['invoice', 'list'])
    await fr(['invoice', 'list', '--due-before', '31/12/2030'])
    await fr(['report', 'collections', '--by', 'operator'])
    await fr(['sandbox', 'outbox'], admin)
    await sb.sb.clock.advance(40 * DAY)
    await fr(['invoice', 'list', '--overdue'])
    await fr(['invoice', 'remind', '--overdue', '--dry-run'])
    await fr(['invoice', 'remind', '--overdue'])
    await fr(['report', 'receivables'])
    await fr(['report', 'collections'])
    await fr(['sandbox', 'walkthrough', '--settle-after', '250ms'], {CI: 'true', SVC_API_KEY: undefined, SVC_BASE_URL: undefined})

    expect(seen.length).toBeGreaterThan(20)
    if (process.env.SVC_SCAN_DUMP) writeFileSync(process.env.SVC_SCAN_DUMP, seen.map((s) => `$ svc ${s.args.join(' ')}\n${s.text}`).join('\n'))
    const found = seen.map(({args, text}) => ({command: args.slice(0, 2).join(' '), offences: offences(text)})).filter((r) => r.offences.length > 0)
    expect(found, JSON.stringify(seen.filter((s) => offences(s.text).length > 0), null, 1)).toEqual([])
  })
})
