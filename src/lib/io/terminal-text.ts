// The one escaping step between text and a person's terminal (see escapeForTerminal). PURE: no imports.
// quote.ts shares its character set.

/**
 * The colour codes our own painter (chalk at level 1: bold, dim, red, green, yellow, cyan) and
 * cli-table3's grey borders write, and nothing else: with colour on, these pass; every other
 * escape sequence is text from somewhere else.
 */
// eslint-disable-next-line no-control-regex
const OWN_SGR = /\u001b\[(?:1|2|22|31|32|33|36|39|90)m/y
// C0 but the newline, DEL, C1, the line and paragraph separators, and every Unicode format
// character (Cf: zero-width spaces and joiners, the bidirectional controls that reorder what a line
// shows, the BOM, soft hyphens, tag characters): each can hide or disguise text on a terminal.
// eslint-disable-next-line no-control-regex
export const UNSAFE_CHARS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\p{Cf}]/u
const UNSAFE = UNSAFE_CHARS
// A zero-width joiner between two pictographs builds one emoji (a family, a profession): kept there.
const EMOJI_JOINER = /(?<=\p{Extended_Pictographic}[\p{M}\p{Emoji_Modifier}]*)\u200d(?=\p{Extended_Pictographic})/uy

/** `\u200b`; a character beyond U+FFFF as `\u{e0041}`. */
export const escapedChar = (char: string): string => {
  const code = char.codePointAt(0)!
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`
}

/**
 * Human output made safe for a terminal: every control character (an escape sequence in a
 * customer's name that would set the window title, clear the screen or colour the rest of the
 * output; a bell; a carriage return that overwrites the line; a zero-width space or a bidi isolate
 * that makes two different names look alike) shown as `\u001b`, visible and harmless. Newlines
 * stay. With `keepOwnColours`, our own colour codes (OWN_SGR) stay too.
 *
 * Applied by IO to everything it writes for a person (tables, details, reports, listen lines,
 * messages), once, at the end; `--json` output never goes through it (JSON escapes C0 itself,
 * and the document stays byte for byte the service's).
 */
export function escapeForTerminal(text: string, options: {keepOwnColours: boolean}): string {
  if (!UNSAFE.test(text)) return text
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!
    const char = code > 0xffff ? String.fromCodePoint(code) : text[i]!
    if (char.length === 2) i++
    if (char === '\u001b' && options.keepOwnColours) {
      OWN_SGR.lastIndex = i
      const own = OWN_SGR.exec(text)
      if (own) {
        out += own[0]
        i += own[0].length - 1
        continue
      }
    }
    if (char === '\u200d') {
      EMOJI_JOINER.lastIndex = i
      if (EMOJI_JOINER.test(text)) {
        out += char
        continue
      }
    }
    out += UNSAFE.test(char) ? escapedChar(char) : char
  }
  return out
}
