/**
 * src/lib/io/process-streams.ts in a process of its own (the streams under test are that
 * process's stdin, stdout and stderr): lines reach their descriptor whole and in order, whether or
 * not the stream exists yet; a reader that goes away ends the output quietly; /dev/null and pipes
 * are not terminals; and the built CLI, run as a user runs it, makes no stream for a call that
 * only prints (the start-up this saves is in docs/startup.md).
 */
import {spawn, spawnSync} from 'node:child_process'
import {mkdtempSync, openSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

const root = fileURLToPath(new URL('../../..', import.meta.url))
let tmp: string

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'svc-process-streams-'))
})
afterAll(() => rmSync(tmp, {recursive: true, force: true}))

let scripts = 0

/** A child that loads process-streams.ts with bin/run.cjs's record of unmade streams, then runs `body`. */
function script(body: string): string[] {
  const module = JSON.stringify(join(root, 'src/lib/io/process-streams.ts'))
  const file = join(tmp, `child-${++scripts}.mjs`)
  writeFileSync(
    file,
    `process[Symbol.for('svc.stdio.unmade')] = new Set(['stdin', 'stdout', 'stderr'])
const {ProcessStreams} = await import(${module})
const streams = new ProcessStreams()
${body}
`,
  )
  return ['--import', 'tsx', file]
}

describe('the process streams', () => {
  it('lines reach the descriptor whole and in order, before and after the stream is made', () => {
    const result = spawnSync(
      process.execPath,
      script(`streams.write('stdout', 'one\\n')
streams.write('stderr', 'é on stderr\\n')
streams.write('stdout', 'x'.repeat(200000) + '\\n')
streams.stdout.write('through the stream\\n')
streams.write('stdout', 'after the stream\\n')`),
      {cwd: root, encoding: 'utf8', maxBuffer: 10 * 1024 * 1024},
    )
    expect(result.stderr).toBe('é on stderr\n')
    expect(result.stdout).toBe(`one\n${'x'.repeat(200000)}\nthrough the stream\nafter the stream\n`)
    expect(result.status).toBe(0)
  })

  it('a reader gone away (`| head -c 5`) ends the output quietly, not the process', async () => {
    const child = spawn(
      process.execPath,
      script(`for (let i = 0; i < 2000; i++) streams.write('stdout', 'y'.repeat(1000) + '\\n')
streams.write('stderr', 'still running\\n')`),
      {cwd: root, stdio: ['ignore', 'pipe', 'pipe']},
    )
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    // Read a little, then close our end: the next write meets EPIPE.
    const first = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(d.toString('utf8'))))
    child.stdout.destroy()
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve))
    expect(first.startsWith('yyyyy')).toBe(true)
    expect(stderr).toBe('still running\n')
    expect(status).toBe(0)
  })

  it('the same through a shell pipe (blocking, so the write itself meets EPIPE)', () => {
    const args = script(`for (let i = 0; i < 2000; i++) streams.write('stdout', 'z'.repeat(1000) + '\\n')
streams.write('stderr', 'still running\\n')`)
    const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`
    const result = spawnSync('sh', ['-c', `${[process.execPath, ...args].map(quote).join(' ')} | head -c 5`], {cwd: root, encoding: 'utf8'})
    expect(result.stdout.startsWith('zzzzz')).toBe(true)
    expect(result.stderr).toBe('still running\n')
  })

  it('/dev/null, a file and a pipe are not terminals (and asking makes no stream)', () => {
    const devNull = openSync('/dev/null', 'r')
    const file = openSync(join(tmp, 'out.txt'), 'w')
    const result = spawnSync(
      process.execPath,
      script(`const answer = {stdin: streams.isTerminal('stdin'), stdout: streams.isTerminal('stdout'), stderr: streams.isTerminal('stderr')}
const made = ['stdin', 'stdout', 'stderr'].filter((name) => streams.has(name))
streams.write('stdout', JSON.stringify({answer, made}))`),
      {cwd: root, stdio: [devNull, file, 'pipe'], encoding: 'utf8'},
    )
    expect(result.status).toBe(0)
    expect(JSON.parse(readFileSync(join(tmp, 'out.txt'), 'utf8'))).toEqual({answer: {stdin: false, stdout: false, stderr: false}, made: []})
  })
})

describe('the built CLI', () => {
  it('`svc profiles list` and `svc sandbox numbers` print without making a stream (no stream, net, tty or fs/promises module)', () => {
    const probe = join(tmp, 'loaded.cjs')
    const list = join(tmp, 'loaded.txt')
    spawnSync(process.execPath, ['-e', `require('fs').writeFileSync(${JSON.stringify(probe)}, ${JSON.stringify(`process.on('exit', () => require('fs').appendFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n') + '\\n'))`)})`])
    const env = {PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, LANG: 'C.UTF-8', SVC_CONFIG_DIR: join(tmp, 'config'), SVC_CACHE_DIR: join(tmp, 'cache')}
    const devNull = openSync('/dev/null', 'r')
    for (const args of [['profiles', 'list'], ['sandbox', 'numbers']]) {
      rmSync(list, {force: true})
      const result = spawnSync(process.execPath, ['-r', probe, join(root, 'bin/run.cjs'), ...args], {env, stdio: [devNull, 'pipe', 'pipe'], encoding: 'utf8'})
      expect(result.status).toBe(0)
      if (args[0] === 'profiles') expect(result.stderr).toContain('svc login')
      else expect(result.stdout).toContain('237670000001')
      const loaded = readFileSync(list, 'utf8').split('\n')
      for (const module of ['NativeModule stream', 'NativeModule net', 'NativeModule tty', 'NativeModule fs/promises']) expect(loaded, `${args.join(' ')}: ${module}`).not.toContain(module)
    }
  })
})
