// The characters string-width counts one column each, alone or in any sequence: printable ASCII,
// Latin-1 (but © and ®, which can start an emoji) and the dashes, quotes and bullets of General
// Punctuation (U+2010–U+2027). A string made only of these is as wide as it is long; none of them
// is a control or combining character, a wide one, or part of an emoji sequence.
// scripts/build.mjs patches string-width with it; test/startup/string-width.test.ts checks each.
export const ONE_COLUMN = '[\\x20-\\x7e\\xa0-\\xa8\\xaa-\\xad\\xaf-\\xff\\u2010-\\u2027]'
