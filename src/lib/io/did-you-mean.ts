/** The nearest of some names to what was typed, when near enough to be a typo (commands, flags). PURE: no imports. */

/** Edit distance (insert, delete, substitute, each 1). */
export function distance(a: string, b: string): number {
  let previous = Array.from({length: b.length + 1}, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = row
  }
  return previous[b.length]!
}

/** The candidate closest to `typed`, if within max(2, a third of its length) edits. */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  let best: {name: string; d: number} | undefined
  for (const name of candidates) {
    const d = distance(typed, name)
    if (!best || d < best.d) best = {name, d}
  }
  return best && best.d <= Math.max(2, Math.floor(typed.length / 3)) ? best.name : undefined
}
