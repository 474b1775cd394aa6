// A person's input quoted back in a message (see quoteInput). PURE: imports only terminal-text's characters.
import {UNSAFE_CHARS} from './terminal-text.js'

const UNSAFE_ALL = new RegExp(UNSAFE_CHARS.source, 'gu')

/**
 * What the user typed, made safe to echo inside a message: control and bidirectional characters
 * shown as visible symbols (a pasted escape sequence must not reach the terminal), long input shortened.
 */
export function quoteInput(input: unknown, max = 60): string {
  const text = typeof input === 'string' ? input : String(input)
  const chars = [...text]
  const shown = chars.length > max ? chars.slice(0, max - 1).join('') + '…' : text
  return shown.replace(UNSAFE_ALL, visibleChar).replaceAll('\n', '␤')
}

/**
 * A character that must not reach the terminal, as a person can read it in a message: a control
 * character as its Unicode picture (a tab as ␉, an escape as ␛), anything else invisible (a
 * zero-width space, a bidirectional mark) by its code point, `<U+200B>`; never `\u0009`.
 */
function visibleChar(char: string): string {
  const code = char.codePointAt(0)!
  if (code < 0x20) return String.fromCodePoint(0x2400 + code)
  if (code === 0x7f) return '␡'
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`
}
