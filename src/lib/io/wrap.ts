/**
 * Prose wrapped at word boundaries to a width (the terminal's), as `fmt` does: a terminal left to
 * itself cuts words in two at its edge. Lines already shorter stay as they are; an indented line
 * keeps its indent on the lines it wraps onto; a word longer than the width (a URL, a command)
 * stays whole on a line of its own; text in backquotes, or a command from `svc` to the end of its
 * sentence, is one word: a command to paste is never split over two lines.
 */
import {displayWidth} from './table.js'

// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g

export function wrapProse(text: string, width: number): string {
  if (width < 20) return text
  return text
    .split('\n')
    .map((line) => wrapLine(line, width))
    .join('\n')
}

function wrapLine(line: string, width: number): string {
  const visible = (s: string) => displayWidth(s.includes('\u001b') ? s.replace(SGR, '') : s)
  if (visible(line) <= width) return line
  const indent = /^\s*/.exec(line)![0]
  // A bullet or a label ("  row 3: ", "- ") sets where the next lines start.
  const hang = /^(\s*(?:[-•*]|\d+[.)])\s+)/.exec(line)?.[1] ?? indent
  const words = glueCommands(line.slice(indent.length).match(/`[^`]*`\S*|\S+/g) ?? [])
  const lines: string[] = []
  let current = indent
  let empty = true
  for (const word of words) {
    const candidate = empty ? current + word : `${current} ${word}`
    if (!empty && visible(candidate) > width) {
      lines.push(current)
      current = ' '.repeat(visible(hang)) + word
    } else current = candidate
    empty = false
  }
  lines.push(current)
  return lines.join('\n')
}

/** `svc` and the words after it, up to one that ends a sentence (`.`, `;`, `,`, `)`), as one word. */
function glueCommands(words: string[]): string[] {
  const out: string[] = []
  let command: string[] | undefined
  for (const word of words) {
    if (!command && word === 'svc') command = [word]
    else if (command) command.push(word)
    else out.push(word)
    if (command && command.length > 1 && /[.;,)]$/.test(word)) {
      out.push(command.join(' '))
      command = undefined
    }
  }
  if (command) out.push(command.join(' '))
  return out
}
