/**
 * scripts/build.mjs answers string-width early for text made only of ONE_COLUMN characters
 * (help wraps every word with it). Each such character must be exactly one column by the real
 * string-width, alone and between others, or help would be laid out differently.
 */
import {createRequire} from 'node:module'
import {describe, expect, it} from 'vitest'

// @ts-expect-error: a build script, plain JavaScript without types
import {ONE_COLUMN} from '../../scripts/string-width-fast.mjs'

const stringWidth = createRequire(import.meta.url)('string-width') as (text: string) => number

describe('the string-width fast path of the build', () => {
  it('covers only characters the real string-width counts as one column, alone and in sequence', () => {
    const oneColumn = new RegExp(`^${ONE_COLUMN as string}$`)
    const covered: number[] = []
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCodePoint(code)
      if (!oneColumn.test(char)) continue
      covered.push(code)
      expect(stringWidth(char), `U+${code.toString(16)}`).toBe(1)
      expect(stringWidth(`a${char}${char}b`), `U+${code.toString(16)} in a word`).toBe(4)
    }
    expect(covered.length).toBeGreaterThan(200)
    expect(covered).not.toContain(0xa9) // ©, an emoji with U+FE0F
  })

  it('leaves the rest to string-width (what the fast path must not claim)', () => {
    const oneColumn = new RegExp(`^${ONE_COLUMN as string}*$`)
    for (const text of ['東京', '🎉', 'e\u0301', '\u001b[1mbold\u001b[22m', '©\ufe0f', '#\ufe0f\u20e3']) {
      expect(oneColumn.test(text), JSON.stringify(text)).toBe(false)
    }
  })
})
