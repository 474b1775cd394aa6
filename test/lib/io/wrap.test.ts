import {describe, expect, it} from 'vitest'

import {wrapProse} from '../../../src/lib/io/wrap.js'

describe('prose wrapped at word boundaries', () => {
  it('leaves short lines alone and breaks long ones between words, within the width', () => {
    expect(wrapProse('short line', 40)).toBe('short line')
    const text = 'Invalid --phone "12": give a Cameroon number of 9 digits starting with 6 or 2, as 670000001 or 237670000001.'
    const lines = wrapProse(text, 40).split('\n')
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40)
    expect(lines.join(' ')).toBe(text)
  })

  it('keeps a command to paste on one line, and an indented line its indent', () => {
    const lines = wrapProse('Stopped watching the payment; it goes on. Resume with: svc pay watch svcpay_test_0VcFxSmf2zJqN2w0pa2akmKn', 50).split('\n')
    expect(lines.at(-1)).toBe('svc pay watch svcpay_test_0VcFxSmf2zJqN2w0pa2akmKn')
    expect(wrapProse('  - one two three four five six seven eight nine ten eleven', 30).split('\n')[1]).toMatch(/^ {4}\S/)
  })

  it('counts the width of what shows, not of colour codes', () => {
    const red = `\u001b[31mError:\u001b[39m ${'word '.repeat(6).trim()}`
    expect(wrapProse(red, 40)).toBe(red)
  })
})
