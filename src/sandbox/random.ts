/**
 * A small seeded PRNG (mulberry32): the sandbox's random outcomes are reproducible with `seed`.
 * Not for secrets: ids and keys use node:crypto.
 */
export interface Random {
  /** A float in [0, 1). */
  next(): number
  /** An element of a non-empty list. */
  pick<T>(list: readonly T[]): T
  /** The generator's state, so that it survives a restart with `dataFile`. */
  state(): number
}

export function seededRandom(seed: number): Random {
  let s = seed >>> 0
  const next = (): number => {
    s = (s + 0x6d2b79f5) >>> 0
    let x = s
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    pick: (list) => list[Math.floor(next() * list.length)],
    state: () => s,
  }
}
