/**
 * bin/run.cjs moves leading global flags behind the command id (`svc --profile local pay list`)
 * with its own list of them, kept there so that start-up reads no manifest first. This test ties
 * that list to the base command's flags as the manifest records them.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {root} from './import-graph.js'

interface ManifestFlag {
  name: string
  char?: string
  type: 'boolean' | 'option'
  allowNo?: boolean
  helpGroup?: string
}

describe('bin/run.cjs global flags', () => {
  it('are exactly the base command flags of the manifest', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8')) as {
      commands: Record<string, {flags: Record<string, ManifestFlag>}>
    }
    const global = Object.values(manifest.commands['pay:list'].flags).filter((f) => f.helpGroup === 'GLOBAL')
    expect(global.length).toBeGreaterThan(5)
    const withValue = global.filter((f) => f.type === 'option').map((f) => `--${f.name}`)
    const booleans = global.filter((f) => f.type === 'boolean').flatMap((f) => [
      `--${f.name}`,
      ...(f.allowNo ? [`--no-${f.name}`] : []),
      ...(f.char ? [`-${f.char}`] : []),
    ])
    const launcher = readFileSync(join(root, 'bin/run.cjs'), 'utf8')
    const list = (name: string) => {
      const match = new RegExp(`const ${name} = new Set\\(\\[([^\\]]*)\\]\\)`).exec(launcher)
      expect(match, name).not.toBeNull()
      return [...match![1].matchAll(/'([^']+)'/g)].map((m) => m[1]).sort()
    }
    expect(list('withValue')).toEqual(withValue.sort())
    expect(list('booleans')).toEqual(booleans.sort())
  })
})
