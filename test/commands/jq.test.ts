/**
 * `--jq EXPR`: the CLI's filter (jq-web, jq compiled to WebAssembly) against Debian's jq
 * (/usr/bin/jq, installed by .ci/run) on real command outputs from a local sandbox. The corpus runs
 * in-process over those outputs (the filter is formatting), as do the commands; the flag runs end to
 * end in the built CLI where the launcher is what is tested (jq's WebAssembly compiling while oclif
 * loads, a global flag given before the command).
 */
import {spawnSync} from 'node:child_process'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {loadJq} from '../../src/lib/io/jq.js'
import {escapeForTerminal} from '../../src/lib/io/terminal-text.js'
import {runCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'
import {runInProcess} from '../helpers/in-process.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

const JQ = '/usr/bin/jq'

let sandbox: TestSandbox
let temp: ReturnType<typeof tempConfigDir>
const outputs: Record<string, string> = {}

const cli = (args: string[]) => runInProcess(args, {configDir: temp.dir, env: sandbox.env()})
/** The built CLI: bin/run.cjs starts jq's WebAssembly compiling while oclif loads and moves global flags last. */
const built = (args: string[]) => runCli(args, {configDir: temp.dir, env: sandbox.env()})

beforeAll(async () => {
  sandbox = await startTestSandbox()
  temp = tempConfigDir()
  // Real documents: payments (one failing), an invoice with items and a name that needs escaping.
  for (const phone of ['670000001', '680000099', '690000001']) {
    const r = await cli(['pay', 'create', '--amount', '2500', '--phone', phone, '--json'])
    expect(r.exitCode, r.stderr).toBe(0)
  }
  const invoice = await cli([
    'invoice', 'create', '--customer-name', 'Émilie "Mimi" Ngo & fils', '--item', 'Riz 25 kg:18000:2', '--item', 'Huile:2500:3', '--due-date', '2099-12-31', '--json',
  ])
  expect(invoice.exitCode, invoice.stderr).toBe(0)
  for (const [name, args] of Object.entries({
    'pay list': ['pay', 'list', '--json'],
    'invoice get': ['invoice', 'get', JSON.parse(invoice.stdout).id, '--json'],
    'sandbox numbers': ['sandbox', 'numbers', '--json'],
  })) {
    const r = await cli(args)
    expect(r.exitCode, r.stderr).toBe(0)
    outputs[name] = r.stdout
  }
}, 60_000)
afterAll(async () => {
  temp?.cleanup()
  await sandbox?.close()
})

/** Debian's jq as gh's --jq prints: raw strings, compact JSON (-r -c); its stdout, stderr and exit code. */
function debianJq(expression: string, input: string): {stdout: string; stderr: string; status: number | null} {
  const r = spawnSync(JQ, ['-r', '-c', expression], {input, encoding: 'utf8'})
  return {stdout: r.stdout, stderr: r.stderr, status: r.status}
}

const CORPUS = [
  '.',
  'length',
  '.[0]',
  '.[] | .id',
  '.[] | select(.status == "PENDING") | .id',
  'map(.amount) | add',
  '[.[] | {id, amount}]',
  'map(select(.phone_number | startswith("2376"))) | length',
  'group_by(.status) | map({status: .[0].status, n: length})',
  'sort_by(.created_at) | reverse | .[0].id',
  'to_entries | map(.key) | join(",")',
  '.[] | "\\(.id)\\t\\(.amount) \\(.currency)"',
  '.[0] | keys',
  '.[0] | to_entries[] | select(.value | type == "number") | .key',
  '[paths] | length',
  '[.. | numbers] | add',
  '.[] | .amount / 7',
  '.[0].amount | tostring | ascii_downcase',
  'map(.id | test("^svcpay_test_")) | all',
  '.[0] | @base64',
  '.[0] | @csv "\\([.id, .amount])"',
  '.[0] | tojson',
  'reduce .[] as $p (0; . + $p.amount)',
  'first(.[] | select(.amount > 100000)) // "none"',
  'def cents: . * 100; map(.amount | cents)',
  '.[] | .nope',
  'limit(2; .[]) | .id',
  'input_line_number',
  '@json',
  '.[0] | with_entries(.value |= tostring)',
  '"é\\u001b[31m\\u0007"',
  'empty',
  '"", ""',
  '.customer_name',
  '.items[]? | "\\(.name): \\(.unit_price * .quantity)"',
  '.items // [] | map(.name) | join("; ")',
  '.total_amount? // .amount?',
  'env | type',
  '$__loc__',
  'splits("x")?',
  '.[]?.outcome?',
  'getpath(["items", 0, "name"])?',
  'ltrimstr("x")',
  '[limit(3; repeat(1))]',
  'now | type',
  '@text',
  '.[0].amount as $a | $a * 2',
]

describe('--jq agrees with Debian jq', () => {
  for (const expression of CORPUS) {
    it(expression, async () => {
      const ours = await loadJq(expression, false)
      for (const [name, json] of Object.entries(outputs)) {
        const theirs = debianJq(expression, json)
        if (theirs.status === 0) {
          expect(await ours.apply(json), `${expression} over ${name}`).toBe(theirs.stdout)
        } else {
          // A runtime error in jq is one in ours, with jq's words.
          await expect(ours.apply(json), `${expression} over ${name}`).rejects.toThrow(/jq: error/)
          expect(theirs.status, theirs.stderr).toBe(5)
        }
      }
    })
  }
})

describe('--jq on a terminal', () => {
  it('indents as jq -r does, and shows control characters from the service\'s text escaped', async () => {
    const json = JSON.stringify([{id: 'svcpay_test_1', note: 'caf\u00e9\u001b]0;pwned\u0007\u001b[2J ok\tdone'}])
    const expression = '.[0].id, .[0].note, {id: .[0].id}'
    const ours = await (await loadJq(expression, true)).apply(json)
    const theirs = spawnSync(JQ, ['-r', expression], {input: json, encoding: 'utf8'}).stdout
    expect(ours).toBe(escapeForTerminal(theirs, {keepOwnColours: false}))
    expect(ours).toBe('svcpay_test_1\ncaf\u00e9\\u001b]0;pwned\\u0007\\u001b[2J ok\\u0009done\n{\n  "id": "svcpay_test_1"\n}\n')
  })
})

describe('svc … --jq EXPR', () => {
  it('filters the JSON a command prints, strings raw, as jq -r -c does', async () => {
    const r = await built(['pay', 'list', '--jq', '.[] | select(.amount == 2500) | .id'])
    expect(r.exitCode, r.stderr).toBe(0)
    const list = await cli(['pay', 'list', '--json'])
    expect(r.stdout).toBe(debianJq('.[] | select(.amount == 2500) | .id', list.stdout).stdout)
    expect(r.stdout).toMatch(/^svcpay_test_\w+\n/)
  })

  it('given before the command, as a global flag', async () => {
    const r = await built(['--jq', '.[0].phone', 'sandbox', 'numbers'])
    expect(r.exitCode, r.stderr).toBe(0)
    expect(r.stdout).toBe('237670000001\n')
  })

  it('an invalid expression exits 2 with jq\'s message, and nothing is sent', async () => {
    const before = (await sandbox.get('/v1/payments?limit=100')).data.length
    const r = await cli(['pay', 'create', '--amount', '1000', '--phone', '670000001', '--jq', '.id |'])
    expect(r.exitCode).toBe(2)
    expect(r.stdout).toBe('')
    const theirs = debianJq('.id |', '{}')
    expect(theirs.status).toBe(3)
    expect(r.stderr).toContain('Invalid --jq expression: jq: error: syntax error, unexpected end of file')
    expect(r.stderr).toContain('jq: 1 compile error')
    expect((await sandbox.get('/v1/payments?limit=100')).data.length).toBe(before)
  })

  it('a filter that fails at run time exits 1 with jq\'s message on stderr, stdout empty', async () => {
    const r = await cli(['sandbox', 'numbers', '--jq', '.[0].phone | error'])
    expect(r.exitCode).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain('The --jq expression failed: jq: error (at <stdin>:0): 237670000001')
  })

  it('a command\'s own error goes to stderr as text, not through the filter', async () => {
    const r = await cli(['pay', 'status', 'svcpay_test_doesnotexist', '--jq', '.status'])
    expect(r.exitCode).not.toBe(0)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(/^Error: /)
  })
})
