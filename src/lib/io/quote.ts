// A person's input quoted back in a message (see quoteInput). PURE: no imports.
/**
 * What the user typed, made safe to echo inside a message: control and bidirectional characters
 * escaped (a pasted escape sequence must not reach the terminal), long input shortened.
 */
export function quoteInput(input: unknown, max = 60): string {
  const text = typeof input === 'string' ? input : String(input)
  const chars = [...text]
  const shown = chars.length > max ? chars.slice(0, max - 1).join('') + '…' : text
  return shown.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
