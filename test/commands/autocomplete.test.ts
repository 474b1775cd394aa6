import {execFileSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect} from 'vitest'

import {runCli} from '../helpers/cli.js'
import {test} from '../helpers/fixtures.js'

// A config dir (test/helpers/fixtures.ts) and a cache dir (XDG_CACHE_HOME) per test. The runs are
// child processes: `autocomplete` is a plugin's command, and the cache dir is read by the binary.
const it = test.extend<{cache: string}>({
  // eslint-disable-next-line no-empty-pattern
  cache: async ({}, use) => {
    const cache = mkdtempSync(join(tmpdir(), 'svc-ac-'))
    try {
      await use(cache)
    } finally {
      rmSync(cache, {recursive: true, force: true})
    }
  },
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
  it('bash: setup instructions, then a completion function that completes commands and flags', async ({temp, cache}) => {
    const env = {XDG_CACHE_HOME: cache}
    const setup = await runCli(['autocomplete', 'bash'], {configDir: temp.dir, env})
    expect(setup.exitCode, setup.stderr).toBe(0)
    expect(setup.stdout).toMatch(/svc autocomplete script bash/)
    const file = join(cache, 'svc', 'autocomplete', 'functions', 'bash', 'svc.bash')
    expect(bashComplete(file, ['svc', 'pa'])).toEqual(['pay'])
    expect(bashComplete(file, ['svc', 'pay', 'create', '--am'])).toEqual(['--amount'])
  })

  it('zsh: setup instructions and a compdef function naming the commands', async ({temp, cache}) => {
    const env = {XDG_CACHE_HOME: cache}
    const setup = await runCli(['autocomplete', 'zsh'], {configDir: temp.dir, env})
    expect(setup.exitCode, setup.stderr).toBe(0)
    expect(setup.stdout).toMatch(/svc autocomplete script zsh/)
    const zsh = readFileSync(join(cache, 'svc', 'autocomplete', 'functions', 'zsh', '_svc'), 'utf8')
    expect(zsh).toMatch(/#compdef svc/)
    for (const id of ['pay', 'sandbox', 'login']) expect(zsh).toContain(`"${id}`)
  })
})
