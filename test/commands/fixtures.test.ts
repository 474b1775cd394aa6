/**
 * `svc fixtures run` against the local sandbox over real HTTP: the examples run, references
 * resolve, overrides apply, every kind of bad file is refused before anything is sent, a re-run
 * after a failure creates no invoice twice, a payment is never repeated, and a LIVE key needs --yes.
 */
import {readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import type {CliResult} from '../helpers/cli.js'
import {startFaultProxy} from '../helpers/fault-proxy.js'
import {test} from '../helpers/fixtures.js'
import {runInProcess} from '../helpers/in-process.js'
import {runInPty, stripAnsi} from '../helpers/pty.js'

const EXAMPLES = join(import.meta.dirname, '../../examples/fixtures')

type Run = (args: string[], env?: Record<string, string>) => Promise<CliResult>
type Counts = {invoices: number; payments: number; liveInvoices: number; livePayments: number}

let fileCount = 0
// The file's sandbox and a config dir per test (test/helpers/fixtures.ts), and what runs on them.
const it = test.extend<{inProcess: Run; counts: () => Promise<Counts>; fixtureFile: (document: unknown) => string}>({
  inProcess: async ({sandbox, temp}, use) => use((args, env = sandbox.env()) => runInProcess(args, {configDir: temp.dir, env: {SVC_RATE_LIMIT: '0', ...env}})),
  /** What the server holds, in both environments. */
  counts: async ({sandbox}, use) =>
    use(async () => {
      const [invoices, payments, liveInvoices, livePayments] = await Promise.all([
        sandbox.get('/v1/invoices?page_size=1'),
        sandbox.get('/v1/payments?limit=1'),
        sandbox.get('/v1/invoices?page_size=1', sandbox.sb.keys.live),
        sandbox.get('/v1/payments?limit=1', sandbox.sb.keys.live),
      ])
      return {invoices: invoices.total, payments: payments.total, liveInvoices: liveInvoices.total, livePayments: livePayments.total}
    }),
  fixtureFile: async ({temp}, use) =>
    use((document) => {
      const path = join(temp.dir, '..', `fixture-${process.pid}-${++fileCount}.json`)
      writeFileSync(path, typeof document === 'string' ? document : JSON.stringify(document))
      return path
    }),
})

const invoiceBody = (name: string) => ({customer_name: name, customer_email: 'shop@example.com', due_date: '2030-12-31', items: [{name: 'Bread', price: 500, quantity: 3}]})

describe('svc fixtures run: the examples', () => {
  const examples = readdirSync(EXAMPLES).filter((name) => name.endsWith('.json'))

  it('has examples to run', () => {
    expect(examples.length).toBeGreaterThan(0)
  })

  it.for(examples)('examples/fixtures/%s runs against the local sandbox', async (name, {inProcess, counts}) => {
    const before = await counts()
    const document = JSON.parse((await import('node:fs')).readFileSync(join(EXAMPLES, name), 'utf8'))
    const r = await inProcess(['fixtures', 'run', join(EXAMPLES, name)])
    expect(r.exitCode, r.stderr).toBe(0)
    // One row per step: its name, method and an id.
    for (const step of document.steps) expect(r.stdout).toMatch(new RegExp(`^${step.name}\\s+${step.method}\\s+/v1/\\S+\\s+20\\d\\s+\\S+`, 'm'))
    const after = await counts()
    const creates = (path: string) => document.steps.filter((s: {method: string; path: string}) => s.method === 'POST' && s.path === path).length
    expect(after.invoices - before.invoices).toBe(creates('/v1/invoices'))
    expect(after.payments - before.payments).toBe(creates('/v1/payments'))
  })

  it('the shop week again, --fresh: new invoices; references resolve into paths and typed values, and the server holds the outcome', async ({sandbox, inProcess, counts}) => {
    const before = await counts()
    const r = await inProcess(['fixtures', 'run', join(EXAMPLES, 'shop-week.json'), '--json', '--fresh'])
    expect(r.exitCode, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(Object.keys(out)).toEqual(['monday_bread', 'monday_publish', 'monday_payment', 'wednesday_catering', 'wednesday_publish', 'wednesday_declined', 'friday_cakes', 'friday_publish', 'friday_cancel', 'monday_payment_status'])
    expect(out.monday_publish.id).toBe(out.monday_bread.id)
    expect(out.monday_payment.amount).toBe(out.monday_publish.amount_due)
    expect(typeof out.monday_payment.amount).toBe('number')
    expect(out.wednesday_declined.amount).toBe(out.wednesday_publish.amount_due)
    expect(out.monday_payment_status.id).toBe(out.monday_payment.id)
    expect((await sandbox.get(`/v1/invoices/${out.friday_cakes.id}`)).status).toBe('CANCELLED')
    expect((await sandbox.get(`/v1/invoices/${out.wednesday_catering.id}`)).status).toBe('UNPAID')
    expect((await counts()).invoices - before.invoices).toBe(3)
  })
})

describe('svc fixtures run: overrides', () => {
  it('--override STEP.PATH=VALUE sets a body field (typed as the value it replaces) before running', async ({sandbox, inProcess}) => {
    const r = await inProcess([
      'fixtures', 'run', join(EXAMPLES, 'shop-week.json'), '--json', '--fresh',
      '--override', 'monday_bread.body.customer_name=Awa Bakery',
      '--override', 'monday_payment.body.phone_number=237670000002',
      '--override', 'friday_cakes.body.items=[{"name":"Tarte","price":8000,"quantity":2}]',
    ])
    expect(r.exitCode, r.stderr).toBe(0)
    const out = JSON.parse(r.stdout)
    expect((await sandbox.get(`/v1/invoices/${out.monday_bread.id}`)).customer_name).toBe('Awa Bakery')
    expect(out.monday_payment.phone_number).toBe('237670000002')
    expect(out.friday_cakes.total_amount).toBe(16000)
  })

  it('a bad override is refused before anything is sent, naming it', async ({inProcess, counts}) => {
    const before = await counts()
    for (const [override, message] of [
      ['nobody.body.amount=5', /no step is named "nobody"/],
      ['monday_bread=5', /write STEP\.PATH=VALUE/],
      ['monday_bread.name=other', /name cannot be set/],
      ['monday_bread.method=FETCH', /step "monday_bread": method must be one of GET, POST/],
    ] as const) {
      const r = await inProcess(['fixtures', 'run', join(EXAMPLES, 'shop-week.json'), '--override', override])
      expect(r.exitCode, override).toBe(2)
      expect(r.stderr).toMatch(message)
    }
    expect(await counts()).toEqual(before)
  })
})

describe('svc fixtures run: bad files are refused before anything is sent (exit 2)', () => {
  const good = [
    {name: 'first', method: 'POST', path: '/v1/invoices', body: invoiceBody('First')},
    {name: 'publish_first', method: 'POST', path: '/v1/invoices/${first.id}/publish'},
  ]
  const cases: [string, unknown, RegExp][] = [
    ['not JSON', '{"steps": [', /is not valid JSON/],
    ['no steps', {}, /the file: steps is missing/],
    ['a step without a method', {steps: [{name: 'first', path: '/v1/invoices'}]}, /step "first": method is missing/],
    ['an unknown field in a step', {steps: [{...good[0], params: {}}]}, /step "first": params is not a known field \(accepted: name, description, method, path, query, body\)/],
    ['a bad step name', {steps: [{...good[0], name: 'First Invoice'}]}, /step "First Invoice": name must be lower-case letters/],
    ['a path outside /v1', {steps: [{...good[0], path: 'https://elsewhere.example/v1/invoices'}]}, /step "first": path must be a path of the API starting with \/v1\//],
    ['a body that is not an object', {steps: [{...good[0], body: [1, 2]}]}, /step "first": body must be an object/],
    ['two steps with one name', {steps: [good[0], {...good[0]}]}, /step #2: the name "first" is already used by step #1/],
    ['a reference to no step', {steps: [good[0], {...good[1], path: '/v1/invoices/${frist.id}/publish'}]}, /step "publish_first": path refers to \$\{frist\.id\}, but no step is named "frist"/],
    ['a reference to a later step', {steps: [{...good[1], name: 'early'}, good[0]]}, /step "early": path refers to \$\{first\.id\}, but step "first" runs later \(#2\)/],
    ['a reference to itself', {steps: [{...good[0], body: {...invoiceBody('x'), notes: '${first.id}'}}]}, /step "first": body\.notes refers to \$\{first\.id\}, its own answer/],
    ['a malformed reference', {steps: [good[0], {...good[1], path: '/v1/invoices/${first}/publish'}]}, /step "publish_first": path holds a malformed reference \$\{first\}: write \$\{step\.field\.path\}/],
    [
      'a field the answer cannot have',
      {steps: [good[0], {name: 'pay', method: 'POST', path: '/v1/payments', body: {amount: '${first.total_amout}', phone_number: '237670000001', operator: 'MTN'}}]},
      /step "pay": body\.amount refers to \$\{first\.total_amout\}, but the answer of step "first" \(POST \/v1\/invoices\) has no "total_amout" there \(it has: id, status, .*total_amount/,
    ],
    [
      'a path into a number',
      {steps: [good[0], {name: 'pay', method: 'POST', path: '/v1/payments', body: {amount: '${first.total_amount.value}', phone_number: '237670000001', operator: 'MTN'}}]},
      /step "pay": body\.amount refers to \$\{first\.total_amount\.value\}, but the answer of step "first" \(POST \/v1\/invoices\) has no "value" there/,
    ],
    [
      'a list read by name',
      {steps: [good[0], {name: 'again', method: 'POST', path: '/v1/invoices', body: {...invoiceBody('x'), notes: 'after ${first.items.first.name}'}}]},
      /step "again": body\.notes refers to \$\{first\.items\.first\.name\}, but "first" is not an index of a list there/,
    ],
  ]

  it.for(cases)('%s', async ([, document, message], {inProcess, counts, fixtureFile}) => {
    const before = await counts()
    const r = await inProcess(['fixtures', 'run', fixtureFile(document)])
    expect(r.exitCode, r.stderr).toBe(2)
    expect(r.stderr).toMatch(message)
    expect(r.stdout).toBe('')
    expect(await counts()).toEqual(before)
  })

  it('lists every problem at once, and --json carries them with their step and field', async ({inProcess, fixtureFile}) => {
    const document = {steps: [{name: 'first', method: 'SEND', path: '/v1/invoices'}, {name: 'second', method: 'GET', path: '/v1/invoices/${third.id}'}]}
    const r = await inProcess(['fixtures', 'run', fixtureFile(document), '--json'])
    expect(r.exitCode).toBe(2)
    const {error} = JSON.parse(r.stdout)
    expect(error.code).toBe('invalid_fixtures')
    // Every kind at once: the schema's problem and the reference's.
    expect(error.problems).toEqual([
      {step: 'first', field: 'method', message: expect.stringMatching(/must be one of/)},
      {step: 'second', field: 'path', message: expect.stringMatching(/no step is named "third"/)},
    ])
    const refs = await inProcess(['fixtures', 'run', fixtureFile({steps: [document.steps[1], {...document.steps[1], name: 'third'}]}), '--json'])
    expect(JSON.parse(refs.stdout).error.problems).toEqual([
      {step: 'second', field: 'path', message: expect.stringMatching(/runs later/)},
      {step: 'third', field: 'path', message: expect.stringMatching(/its own answer/)},
    ])
  })

  describe('hostile files: limits named with the file, the step and the limit; never a stack overflow', () => {
    const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`
    const hostile: [string, () => string, RegExp][] = [
      [
        'a body nested 100,000 deep',
        () => `{"steps":[{"name":"deep","method":"POST","path":"/v1/invoices","body":${deep(100_000)}}]}`,
        /step "deep": body\.a\.a\.a.* is nested deeper than 32 levels/,
      ],
      [
        'a file nested 100,000 deep outside the steps',
        () => `{"steps":[${JSON.stringify(good[0])}],"x":${deep(100_000)}}`,
        /the file: x\.a\.a.* is nested deeper than 32 levels/,
      ],
      [
        '200,000 references in one step',
        () => JSON.stringify({steps: [good[0], {name: 'many', method: 'POST', path: '/v1/invoices', body: {...invoiceBody('x'), notes: '${first.id}'.repeat(200_000)}}]}),
        /step "many": body\.notes brings the file to more than 1000 references/,
      ],
      [
        'a step body over the service’s 1 MB',
        () => JSON.stringify({steps: [{...good[0], name: 'big', body: {...invoiceBody('x'), notes: 'n'.repeat(1_100_000)}}]}),
        /step "big": body is \d+ bytes; the service accepts at most 1048576/,
      ],
      ['a file over 8 MB', () => JSON.stringify({steps: [good[0]], pad: 'p'.repeat(9 * 1024 * 1024)}), /is \d+ bytes; a fixtures file may have at most 8388608/],
    ]
    it.for(hostile)('%s', async ([, text, message], {inProcess, counts, fixtureFile}) => {
      const before = await counts()
      const r = await inProcess(['fixtures', 'run', fixtureFile(text())])
      expect(r.exitCode, r.stderr).toBe(2)
      expect(r.stderr).toMatch(message)
      expect(r.stderr).toMatch(/fixture-\d+-\d+\.json/)
      expect(r.stderr).not.toMatch(/Maximum call stack|Unexpected error/)
      expect(await counts()).toEqual(before)
    })

    it('problems of every kind in one run: a limit, the schema, a duplicate name, a reference', async ({inProcess, fixtureFile}) => {
      const document = `{"steps":[${JSON.stringify(good[0])},{"name":"deep","method":"POST","path":"/v1/invoices","body":${deep(50)}},{"name":"first","method":"SEND","path":"/v1/x"},{"name":"late","method":"GET","path":"/v1/invoices/\${nope.id}"}]}`
      const r = await inProcess(['fixtures', 'run', fixtureFile(document), '--json'])
      expect(r.exitCode).toBe(2)
      const messages = JSON.parse(r.stdout).error.problems.map((p: {message: string}) => p.message).join('\n')
      expect(messages).toMatch(/nested deeper than 32/)
      expect(messages).toMatch(/must be one of/)
      expect(messages).toMatch(/already used by step #1/)
      expect(messages).toMatch(/no step is named "nope"/)
    })
  })

  it('speaks French when asked (same checks, same exit code)', async ({inProcess, fixtureFile}) => {
    const r = await inProcess(['fixtures', 'run', fixtureFile({steps: [{name: 'first', path: '/v1/invoices'}]}), '--lang', 'fr'])
    expect(r.exitCode).toBe(2)
    expect(r.stderr).toMatch(/étape « first » : method manque/)
  })
})

describe('svc fixtures run: failures and re-runs', () => {
  it('a failure midway stops the run with what was done; a re-run replays the invoices instead of creating them twice', async ({inProcess, counts, fixtureFile}) => {
    const document = {
      steps: [
        {name: 'first', method: 'POST', path: '/v1/invoices', body: invoiceBody('Rerun A')},
        {name: 'publish_first', method: 'POST', path: '/v1/invoices/${first.id}/publish'},
        {name: 'second', method: 'POST', path: '/v1/invoices', body: invoiceBody('Rerun B')},
        {name: 'lookup', method: 'GET', path: '/v1/invoices/inv_test_does_not_exist'},
        {name: 'third', method: 'POST', path: '/v1/invoices', body: invoiceBody('Rerun C')},
      ],
    }
    const file = fixtureFile(document)
    const before = await counts()
    const failed = await inProcess(['fixtures', 'run', file])
    expect(failed.exitCode).toBe(4)
    expect(failed.stderr).toMatch(/Step "lookup" \(GET \/v1\/invoices\/inv_test_does_not_exist\) failed; 3 of 5 steps were done before it/)
    expect(failed.stdout).toMatch(/^first\s+POST\s+\/v1\/invoices\s+201\s+inv_test_/m)
    expect(failed.stdout).not.toMatch(/^third/m)
    expect((await counts()).invoices - before.invoices).toBe(2)

    // Fixed with an override and run again: the first two invoices are replayed, only the third is new.
    const fixed = await inProcess(['fixtures', 'run', file, '--override', 'lookup.path=/v1/invoices/${second.id}', '--json'])
    expect(fixed.exitCode, fixed.stderr).toBe(0)
    const out = JSON.parse(fixed.stdout)
    expect(out.lookup.id).toBe(out.second.id)
    expect((await counts()).invoices - before.invoices).toBe(3)
    const again = await inProcess(['fixtures', 'run', file, '--override', 'lookup.path=/v1/invoices/${second.id}'])
    expect(again.exitCode, again.stderr).toBe(0)
    expect(again.stdout).toMatch(/^first\s+POST\s+\/v1\/invoices\s+201 \(replayed\)/m)
    expect((await counts()).invoices - before.invoices).toBe(3)
  })

  it('--json on a failure: the error names the step, and the answers done before it', async ({inProcess, fixtureFile}) => {
    const file = fixtureFile({steps: [{name: 'first', method: 'POST', path: '/v1/invoices', body: invoiceBody('Json fail')}, {name: 'broken', method: 'GET', path: '/v1/invoices/inv_test_missing'}]})
    const r = await inProcess(['fixtures', 'run', file, '--json'])
    expect(r.exitCode).toBe(4)
    const out = JSON.parse(r.stdout)
    expect(out.error).toMatchObject({step: 'broken', status: 404})
    expect(Object.keys(out.done)).toEqual(['first'])
  })

  it('POST /v1/payments is sent once and never retried: a lost answer exits 7 naming the step', async ({sandbox, inProcess, counts, fixtureFile}) => {
    const proxy = await startFaultProxy(sandbox.sb.url, [{method: 'POST', path: /^\/v1\/payments$/, fault: {kind: 'status-after-forward', status: 503, body: '{"message":"down"}'}}])
    try {
      const before = await counts()
      const file = fixtureFile({
        steps: [
          {name: 'order', method: 'POST', path: '/v1/invoices', body: invoiceBody('Pay once')},
          {name: 'pay', method: 'POST', path: '/v1/payments', body: {amount: '${order.total_amount}', phone_number: '237670000001', operator: 'MTN'}},
          {name: 'after', method: 'POST', path: '/v1/invoices', body: invoiceBody('Never made')},
        ],
      })
      const r = await inProcess(['fixtures', 'run', file], {...sandbox.env(), SVC_BASE_URL: proxy.url})
      expect(r.exitCode).toBe(7)
      expect(r.stderr).toMatch(/Step "pay" \(POST \/v1\/payments\) failed; 1 of 3 steps were done before it/)
      expect(r.stderr).toMatch(/never retried/)
      expect(r.stdout).toMatch(/^order\s+POST/m)
      expect(proxy.seen.filter((line) => line === 'POST /v1/payments')).toHaveLength(1)
      const after = await counts()
      expect(after.payments - before.payments).toBe(1)
      expect(after.invoices - before.invoices).toBe(1)
    } finally {
      await proxy.close()
    }
  })
})

describe('svc fixtures run: what references write into a path', () => {
  it('is URL-encoded: a value from an answer never adds a segment or a query', async ({sandbox, inProcess, fixtureFile}) => {
    const proxy = await startFaultProxy(sandbox.sb.url, [])
    try {
      const file = fixtureFile({
        steps: [
          {name: 'first', method: 'POST', path: '/v1/invoices', body: {...invoiceBody('a/b?c=1#d'), notes: 'x'}},
          {name: 'odd', method: 'GET', path: '/v1/invoices/${first.customer_name}'},
        ],
      })
      const r = await inProcess(['fixtures', 'run', file, '--fresh'], {...sandbox.env(), SVC_BASE_URL: proxy.url})
      expect(r.exitCode).toBe(4)
      expect(proxy.seen).toContain('GET /v1/invoices/a%2Fb%3Fc%3D1%23d')
    } finally {
      await proxy.close()
    }
  })
})

describe('svc fixtures run: paths outside /v1', () => {
  const outside = ['/v1/../_admin/keys', '/v1/%2e%2e/_admin/keys', '/v1/.%2E/_admin/keys', '/v1/..\\_admin\\keys', '/v1//..//../_admin/keys', '/v1/./x/../../_admin/keys']
  it.for(outside)('%s is refused before anything is sent, naming the step', async (path, {sandbox, inProcess, fixtureFile}) => {
    const proxy = await startFaultProxy(sandbox.sb.url, [])
    try {
      const file = fixtureFile({steps: [{name: 'sneaky', method: 'POST', path, body: {environment: 'LIVE'}}]})
      const r = await inProcess(['fixtures', 'run', file], {...sandbox.env(), SVC_BASE_URL: proxy.url})
      expect(r.exitCode, r.stderr + r.stdout).toBe(2)
      expect(r.stderr).toMatch(/step "sneaky": path .*\/v1/)
      expect(proxy.seen).toEqual([])
    } finally {
      await proxy.close()
    }
  })

  it('a path made outside /v1 by a reference refuses that step, and sends nothing of it', async ({sandbox, inProcess, fixtureFile}) => {
    const proxy = await startFaultProxy(sandbox.sb.url, [])
    try {
      const file = fixtureFile({
        steps: [
          {name: 'first', method: 'POST', path: '/v1/invoices', body: {...invoiceBody('..'), notes: 'x'}},
          {name: 'climb', method: 'GET', path: '/v1/${first.customer_name}/${first.customer_name}/_admin/keys'},
        ],
      })
      const r = await inProcess(['fixtures', 'run', file, '--fresh'], {...sandbox.env(), SVC_BASE_URL: proxy.url})
      expect(r.exitCode, r.stderr + r.stdout).toBe(2)
      expect(r.stderr).toMatch(/"climb"/)
      expect(proxy.seen.filter((line) => !line.startsWith('POST /v1/invoices') && !line.includes('/v1/openapi.json'))).toEqual([])
    } finally {
      await proxy.close()
    }
  })
})

describe('svc fixtures run: LIVE keys', () => {
  it('a LIVE key without --yes is refused (exit 2) when not interactive, nothing sent; with --yes it runs', async ({sandbox, inProcess, counts, fixtureFile}) => {
    const file = fixtureFile({steps: [{name: 'first', method: 'POST', path: '/v1/invoices', body: invoiceBody('Live shop')}]})
    const before = await counts()
    const refused = await inProcess(['fixtures', 'run', file], sandbox.env('live'))
    expect(refused.exitCode).toBe(2)
    expect(refused.stderr).toMatch(/LIVE/)
    expect(refused.stderr).toMatch(/--yes/)
    expect(await counts()).toEqual(before)
    const confirmed = await inProcess(['fixtures', 'run', file, '--yes'], sandbox.env('live'))
    expect(confirmed.exitCode, confirmed.stderr).toBe(0)
    expect((await counts()).liveInvoices - before.liveInvoices).toBe(1)
  })

  it('on a terminal, a LIVE key asks first: declined, nothing is sent (exit 2); accepted, the steps run', async ({sandbox, temp, counts, fixtureFile}) => {
    const file = fixtureFile({steps: [{name: 'first', method: 'POST', path: '/v1/invoices', body: invoiceBody('Live terminal')}]})
    const before = await counts()
    const declined = runInPty(['fixtures', 'run', file], {configDir: temp.dir, env: {...sandbox.env('live'), SVC_RATE_LIMIT: '0'}})
    await declined.waitFor(/LIVE key \(svc_sk_live_…\w{4}\): run the 1 step of fixture-.*\.json/)
    declined.type('n\r')
    expect((await declined.exit).exitCode).toBe(2)
    expect(stripAnsi(declined.output())).toMatch(/nothing was sent/)
    expect(await counts()).toEqual(before)
    const accepted = runInPty(['fixtures', 'run', file], {configDir: temp.dir, env: {...sandbox.env('live'), SVC_RATE_LIMIT: '0'}})
    await accepted.waitFor(/Continue\?/)
    accepted.type('y\r')
    expect((await accepted.exit).exitCode).toBe(0)
    expect(stripAnsi(accepted.output())).toMatch(/first[\s│]+POST[\s│]+\/v1\/invoices[\s│]+201/)
    expect((await counts()).liveInvoices - before.liveInvoices).toBe(1)
  })
})
