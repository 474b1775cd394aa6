import {execFileSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {tempConfigDir} from '../helpers/config-dir.js'

let temp: ReturnType<typeof tempConfigDir>
let cache: string
beforeEach(() => {
  temp = tempConfigDir()
  cache = mkdtempSync(join(tmpdir(), 'svc-ac-'))
})
afterEach(() => {
  temp.cleanup()
  rmSync(cache, {recursive: true, force: true})
})

/** What bash offers after `svc <words…><TAB>`, with the generated completion function loaded. */
function bashComplete(functionsFile: string, words: string[]): string[] {
  const script = `source ${JSON.stringify(functionsFile)}
COMP_WORDS=(${words.map((w) => JSON.stringify(w)).join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE="${words.join(' ')}"
_svc_autocomplete; printf '%s\\n' "\${COMPREPLY[@]}"`
  // readline shows each candidate once, whatever the function put in COMPREPLY.
  return [...new Set(execFileSync('bash', ['-c', script], {encoding: 'utf8'}).split('\n').filter(Boolean))]
}

describe('svc autocomplete', () => {
  it('bash: setup instructions, then a completion function that completes commands and flags', async () => {
    const env = {XDG_CACHE_HOME: cache}
    const setup = await runCli(['autocomplete', 'bash'], {configDir: temp.dir, env})
    expect(setup.exitCode, setup.stderr).toBe(0)
    expect(setup.stdout).toMatch(/svc autocomplete script bash/)
    const file = join(cache, 'svc', 'autocomplete', 'functions', 'bash', 'svc.bash')
    expect(bashComplete(file, ['svc', 'pa'])).toEqual(['pay'])
    expect(bashComplete(file, ['svc', 'pay', 'create', '--am'])).toEqual(['--amount'])
  })

  it('zsh: setup instructions and a compdef function naming the commands', async () => {
    const env = {XDG_CACHE_HOME: cache}
    const setup = await runCli(['autocomplete', 'zsh'], {configDir: temp.dir, env})
    expect(setup.exitCode, setup.stderr).toBe(0)
    expect(setup.stdout).toMatch(/svc autocomplete script zsh/)
    const zsh = readFileSync(join(cache, 'svc', 'autocomplete', 'functions', 'zsh', '_svc'), 'utf8')
    expect(zsh).toMatch(/#compdef svc/)
    for (const id of ['pay', 'sandbox', 'login']) expect(zsh).toContain(`"${id}`)
  })
})
