/**
 * The long durability run (docs/reliability.md, "The sandbox as a server"): create payments in a
 * loop against `--data` on SQLite, SIGKILL the sandbox at random moments, restart it on the same
 * file, until at least `--target` creates were acknowledged; then find every one of them among the
 * payments the restarted sandbox lists.
 * The same check, bounded, runs in CI: test/sandbox/durability.test.ts.
 *
 *   node --import tsx bench/sandbox/durability.ts [--target 20000] [--rounds 10] [--max-run-ms 10000] [--workers 16]
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {durabilityRun} from '../../test/sandbox/durability-run.js'

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i === -1 ? fallback : Number(args[i + 1])
}
const dir = mkdtempSync(join(tmpdir(), 'svc-durability-'))
try {
  const started = Date.now()
  const result = await durabilityRun({
    dataFile: join(dir, 'sandbox.db'),
    rounds: arg('rounds', 10),
    targetAcknowledged: arg('target', 20_000),
    maxRunMs: arg('max-run-ms', 10_000),
    workers: arg('workers', 16),
    log: (line) => console.error(line),
  })
  console.log(
    `${result.rounds} SIGKILLs, ${result.acknowledged.toLocaleString('en')} creates answered 201, ` +
      `${result.lost.length} lost after restart (${Math.round((Date.now() - started) / 1000)} s, Node ${process.version})`,
  )
  if (result.lost.length > 0) {
    console.log(`lost: ${result.lost.slice(0, 20).join(', ')}${result.lost.length > 20 ? ', …' : ''}`)
    process.exitCode = 1
  }
} finally {
  rmSync(dir, {recursive: true, force: true})
}
