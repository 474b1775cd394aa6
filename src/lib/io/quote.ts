// A person's input quoted back in a message (see quoteInput). PURE: imports only terminal-text's characters.
import {UNSAFE_CHARS, escapedChar} from './terminal-text.js'

const UNSAFE_ALL = new RegExp(UNSAFE_CHARS.source, 'gu')

/**
 * What the user typed, made safe to echo inside a message: control and bidirectional characters
 * escaped (a pasted escape sequence must not reach the terminal), long input shortened.
 */
export function quoteInput(input: unknown, max = 60): string {
  const text = typeof input === 'string' ? input : String(input)
  const chars = [...text]
  const shown = chars.length > max ? chars.slice(0, max - 1).join('') + '…' : text
  return shown.replace(UNSAFE_ALL, escapedChar).replaceAll('\n', '\\u000a')
}
