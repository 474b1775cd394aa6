import {describe, expect, it} from 'vitest'

import {escapeForTerminal} from '../../../src/lib/io/terminal-text.js'

describe('escapeForTerminal: the one escaping step of human output', () => {
  it('shows every control character escaped; newlines stay', () => {
    expect(escapeForTerminal('a\u001b]0;t\u0007b\nc\rd\te\u009bf\u202eg\u0000', {keepOwnColours: false})).toBe(
      'a\\u001b]0;t\\u0007b\nc\\u000dd\\u0009e\\u009bf\\u202eg\\u0000',
    )
  })
  it('plain text passes unchanged (same string)', () => {
    const text = 'Awa Bakery — 12 500 XAF, créée 31/12/2026\n２行'
    expect(escapeForTerminal(text, {keepOwnColours: false})).toBe(text)
  })
  it('with colour on, keeps exactly our own codes and escapes any other sequence', () => {
    const own = '\u001b[1mID\u001b[22m \u001b[32mPAID\u001b[39m \u001b[90m│\u001b[39m'
    expect(escapeForTerminal(own, {keepOwnColours: true})).toBe(own)
    expect(escapeForTerminal(own, {keepOwnColours: false})).not.toContain('\u001b')
    expect(escapeForTerminal('\u001b[35mx\u001b[2J\u001b[31;1m', {keepOwnColours: true})).toBe('\\u001b[35mx\\u001b[2J\\u001b[31;1m')
  })
  it('shows Unicode format characters (Cf) escaped: zero-width, bidi isolates, BOM, soft hyphen, tags', () => {
    expect(escapeForTerminal('pa\u200by\u2060a\u2066b\u2069\ufeffc\u00add\u{e0041}e\u061cf', {keepOwnColours: false})).toBe(
      'pa\\u200by\\u2060a\\u2066b\\u2069\\ufeffc\\u00add\\u{e0041}e\\u061cf',
    )
  })
  it('keeps the joiner inside an emoji sequence (a family, a profession), escapes it elsewhere', () => {
    const family = '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}'
    expect(escapeForTerminal(`Awa ${family}`, {keepOwnColours: false})).toBe(`Awa ${family}`)
    expect(escapeForTerminal('a\u200db', {keepOwnColours: false})).toBe('a\\u200db')
  })
})
