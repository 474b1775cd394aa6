import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {sections} from '../../../src/lib/i18n/en/index.js'
import {t} from '../../../src/lib/i18n/index.js'

describe('message catalogue', () => {
  it('defines every key once, in the section its prefix names', () => {
    const seen = new Map<string, string>()
    for (const [section, messages] of Object.entries(sections)) {
      for (const key of Object.keys(messages)) {
        expect(seen.get(key), `${key} defined in ${seen.get(key)} and ${section}`).toBeUndefined()
        seen.set(key, section)
        expect(key.startsWith(`${section}.`), `${key} in section ${section}`).toBe(true)
        expect((messages as Record<string, string>)[key].trim()).not.toBe('')
      }
    }
  })

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(t('core.profile.used', {name: 'shop'})).toBe('Now using profile "shop".')
    expect(t('core.profile.used')).toContain('{name}')
  })

  it('no command file writes a user-facing string literal (everything goes through t())', () => {
    const root = join(import.meta.dirname, '../../../src/commands')
    const files = (readdirSync(root, {recursive: true}) as string[]).filter((f) => f.endsWith('.ts'))
    const offenders: string[] = []
    for (const file of files) {
      const text = readFileSync(join(root, file), 'utf8')
      // Output calls with a literal argument: io.out('…'), io.err("…"), io.warn(`…`), this.log('…').
      const pattern = /\b(?:io\.(?:out|err|warn)|this\.(?:log|warn|error|logToStderr))\(\s*(['"`])(?!\s*\1)/g
      for (const match of text.matchAll(pattern)) offenders.push(`${file}: ${match[0]}`)
      // Errors built from a literal message.
      for (const match of text.matchAll(/new \w*Error\(\s*(['"`])/g)) offenders.push(`${file}: ${match[0]}`)
    }
    expect(offenders).toEqual([])
  })
})
