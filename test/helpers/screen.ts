/**
 * A minimal terminal screen for tests of what a person sees: feeds the bytes a program wrote to a
 * pseudo-terminal and keeps the lines as a terminal would show them. Handles what CLI progress
 * output uses: printable text (wrapping at the width), CR, LF, backspace, `ESC[K` (erase to end
 * of line), `ESC[nA|B|C|D|G` (cursor moves), `ESC[2K`; other sequences (colours, cursor
 * visibility) change nothing on screen and are skipped.
 */
export class Screen {
  readonly lines: string[] = ['']
  private row = 0
  private col = 0

  constructor(readonly cols = 80) {}

  private put(ch: string): void {
    if (this.col >= this.cols) {
      this.row += 1
      this.col = 0
    }
    while (this.lines.length <= this.row) this.lines.push('')
    const line = this.lines[this.row]!.padEnd(this.col, ' ')
    this.lines[this.row] = line.slice(0, this.col) + ch + line.slice(this.col + 1)
    this.col += 1
  }

  write(data: string): void {
    for (let i = 0; i < data.length; i++) {
      const c = data[i]!
      if (c === '\u001b') {
        const csi = /^\u001b\[([?0-9;]*)([ -/]*)([@-~])/.exec(data.slice(i))
        if (csi) {
          i += csi[0].length - 1
          const n = Number(csi[1]!.split(';')[0]) || 1
          const final = csi[3]
          if (csi[1]!.startsWith('?')) continue
          if (final === 'K') {
            const mode = Number(csi[1]) || 0
            const line = this.lines[this.row] ?? ''
            this.lines[this.row] = mode === 2 ? '' : mode === 1 ? ' '.repeat(this.col) + line.slice(this.col) : line.slice(0, this.col)
          } else if (final === 'A') this.row = Math.max(0, this.row - n)
          else if (final === 'B') this.row += n
          else if (final === 'C') this.col = Math.min(this.cols - 1, this.col + n)
          else if (final === 'D') this.col = Math.max(0, this.col - n)
          else if (final === 'G') this.col = Math.max(0, n - 1)
          while (this.lines.length <= this.row) this.lines.push('')
          continue
        }
        // ESC followed by one character (charset, keypad modes): skip both.
        i += 1
        continue
      }
      if (c === '\r') this.col = 0
      else if (c === '\n') {
        this.row += 1
        this.col = 0
        while (this.lines.length <= this.row) this.lines.push('')
      } else if (c === '\b') this.col = Math.max(0, this.col - 1)
      else if (c >= ' ' || c === '\t') this.put(c === '\t' ? ' ' : c)
    }
  }

  /** The screen's lines, trailing spaces dropped. */
  text(): string[] {
    return this.lines.map((l) => l.replace(/\s+$/, ''))
  }
}
