/**
 * The unit of `fc.string({unit: 'binary'})` (any code point but a lone surrogate: 1,112,064
 * characters), as fast-check builds it: the same values from the same seed, and the same shrinking.
 * What differs is reading a character back (what shrinking a value fast-check did not generate
 * needs): fast-check's unit keeps a Map of all its characters for it, which it fills as the first
 * string of that unit is made in a process (to cut its built-in examples into characters), ~0.7 s
 * of CPU; here a character is read back from its code point.
 *
 *   fc.string({unit: anyCodePoint, maxLength: 40})
 */
import fc from 'fast-check'

/** The code points fast-check's binary unit leaves out, U+D800 to U+DFFF. */
const SURROGATES = 0xe000 - 0xd800

export const anyCodePoint: fc.Arbitrary<string> = fc.nat({max: 0x10ffff - SURROGATES}).map(
  (index) => String.fromCodePoint(index < 0xd800 ? index : index + SURROGATES),
  (value) => {
    const point = typeof value === 'string' ? value.codePointAt(0) : undefined
    if (point === undefined || (point >= 0xd800 && point < 0xe000) || String.fromCodePoint(point) !== value) throw new Error('not one character of the unit')
    return point < 0xd800 ? point : point - SURROGATES
  },
)
