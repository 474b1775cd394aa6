// The one escaping step between text and a person's terminal (see escapeForTerminal). PURE: no imports.

/**
 * The colour codes our own painter (chalk at level 1: bold, dim, red, green, yellow, cyan) and
 * cli-table3's grey borders write, and nothing else: with colour on, these pass; every other
 * escape sequence is text from somewhere else.
 */
// eslint-disable-next-line no-control-regex
const OWN_SGR = /\u001b\[(?:1|2|22|31|32|33|36|39|90)m/y
// C0 but the newline, DEL, C1, and the bidirectional controls that reorder what a line shows.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

const escaped = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`

/**
 * Human output made safe for a terminal: every control character (an escape sequence in a
 * customer's name that would set the window title, clear the screen or colour the rest of the
 * output; a bell; a carriage return that overwrites the line) shown as `\u001b`, visible and
 * harmless. Newlines stay. With `keepOwnColours`, our own colour codes (OWN_SGR) stay too.
 *
 * Applied by IO to everything it writes for a person (tables, details, reports, listen lines,
 * messages), once, at the end; `--json` output never goes through it (JSON escapes C0 itself,
 * and the document stays byte for byte the service's).
 */
export function escapeForTerminal(text: string, options: {keepOwnColours: boolean}): string {
  if (!UNSAFE.test(text)) return text
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (char === '\u001b' && options.keepOwnColours) {
      OWN_SGR.lastIndex = i
      const own = OWN_SGR.exec(text)
      if (own) {
        out += own[0]
        i += own[0].length - 1
        continue
      }
    }
    out += UNSAFE.test(char) ? escaped(char) : char
  }
  return out
}
