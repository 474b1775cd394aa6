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

/** What Debian's jq gives for one document: what it prints (`jq -r -c`), or its runtime error. */
type Answer = {stdout: string; error?: undefined} | {stdout?: undefined; error: string}

const RS = '\u001e'
/** A document cut short: jq --seq says "ignoring parse error" on stderr and reads on. */
const CUT = '"cut'
const IGNORED = /ignoring parse error: [^\n]*\n/

/**
 * Debian's jq over several documents in one process (its start, ~15 ms of CPU, was most of this
 * file's CPU when it ran once per document), each document's answer still its own: the documents
 * go in as a JSON text sequence (--seq, RFC 7464) with a cut one between each two, which jq names
 * on stderr and skips; its stderr and stdout (--unbuffered) go to one pipe, so that those lines
 * part the answers. --seq puts RS before each output and nothing else: without it, the output is
 * `jq -r -c`'s. A runtime error is jq's "jq: error (at <stdin>:N)" line in the document's part
 * (jq's exit code, 5 then, is that of the last document only). An expression that reads where in
 * its input it is (input_line_number, input, inputs) is run once per document, as before.
 */
function debianJqEach(expression: string, inputs: string[]): Answer[] {
  if (/\binput/.test(expression)) {
    return inputs.map((input) => {
      const r = debianJq(expression, input)
      if (r.status === 0) return {stdout: r.stdout}
      expect(r.status, r.stderr).toBe(5)
      return {error: r.stderr}
    })
  }
  for (const input of inputs) expect(input.includes(RS)).toBe(false)
  const stream = inputs.map((input) => `${RS}${input}`).join(`${RS}${CUT}\n`)
  const r = spawnSync('/bin/sh', ['-c', 'exec "$0" "$@" 2>&1', JQ, '--seq', '--unbuffered', '-r', '-c', expression], {input: stream, encoding: 'utf8'})
  // 0, or 5 when the last document met a runtime error; a compile error (3) or bad usage (2) is neither.
  expect([0, 5], r.stdout).toContain(r.status)
  const parts = r.stdout.split(IGNORED)
  expect(parts, r.stdout).toHaveLength(inputs.length)
  return parts.map((part) => {
    const error = /(?:^|\n)(jq: error \(at <stdin>:\d+\): [\s\S]*)$/.exec(part)
    return error ? {error: error[1]!} : {stdout: part.replaceAll(RS, '')}
  })
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
      const answers = debianJqEach(expression, Object.values(outputs))
      for (const [i, [name, json]] of Object.entries(outputs).entries()) {
        const theirs = answers[i]!
        if (theirs.error === undefined) {
          expect(await ours.apply(json), `${expression} over ${name}`).toBe(theirs.stdout)
        } else {
          // A runtime error in jq (exit 5) is one in ours, with jq's words.
          await expect(ours.apply(json), `${expression} over ${name}`).rejects.toThrow(/jq: error/)
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
