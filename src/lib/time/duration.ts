/**
 * Durations as typed on the command line (`--interval 3s`, `--timeout 5m`, `--settle-after 2s`,
 * `sandbox clock advance 7d`), in milliseconds.
 *
 * Accepted: `0` alone, or one or more NUMBER UNIT parts with units ms, s, m, h, d (also sec, min,
 * hr; any case), largest unit first, each at most once: `250ms`, `2s`, `5m`, `1h`, `7d`, `1h30m`,
 * `1m 30s`. A number may have decimals when the result is a whole number of milliseconds:
 * `1.5s` is 1500, `0.5h` is 1800000, `0.5ms` is refused.
 * Refused: negatives, bare numbers other than 0 (`5`: seconds or milliseconds?), unknown units
 * (`5w`, `5x`), repeated or out-of-order units (`30m1h`), anything above MAX_SAFE_INTEGER ms.
 */
import {InputError} from '../errors.js'
import {t, type MessageKey} from '../i18n/index.js'
import {quoteInput} from '../io/quote.js'

export const SECOND = 1000
export const MINUTE = 60 * SECOND
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR

const UNITS: Readonly<Record<string, number>> = {
  ms: 1,
  s: SECOND,
  sec: SECOND,
  m: MINUTE,
  min: MINUTE,
  h: HOUR,
  hr: HOUR,
  d: DAY,
}

const PART = /(\d+)(?:\.(\d+))?\s*([a-zA-Z]+)\s*/y

export interface DurationBounds {
  /** Smallest accepted value in ms (inclusive). */
  min?: number
  /** Largest accepted value in ms (inclusive). */
  max?: number
  /** The unit a bare number most likely meant, suggested when the unit is missing (`3` → `3d` for a due window). */
  unit?: string
}

/** Milliseconds of a duration such as `250ms`, `2s`, `1.5s`, `5m`, `1h30m`, `7d` or `0`. */
export function parseDuration(input: string, field: string, bounds: DurationBounds = {}): number {
  const fail = (key: MessageKey, extra: Record<string, string | number> = {}): never => {
    throw new InputError(t(key, {field, input: quoteInput(input), ...extra}), {field})
  }
  const text = typeof input === 'string' ? input.trim() : ''
  if (text === '') fail('domain.duration.missing')
  if (/^[-\u2212]/.test(text)) fail('domain.duration.negative')

  let total: bigint
  if (/^0+(?:\.0+)?$/.test(text)) {
    total = 0n
  } else if (/^\d+(?:\.\d+)?$/.test(text)) {
    return bounds.unit ? fail('domain.duration.noUnitSuggest', {unit: bounds.unit}) : fail('domain.duration.noUnit')
  } else {
    total = 0n
    let lastUnit = Infinity
    PART.lastIndex = 0
    while (PART.lastIndex < text.length) {
      const start = PART.lastIndex
      const match = PART.exec(text)
      if (!match) {
        PART.lastIndex = 0
        return fail('domain.duration.invalid', {})
      }
      const [, whole, fraction = '', rawUnit] = match as unknown as [string, string, string | undefined, string]
      const unit = UNITS[rawUnit.toLowerCase()]
      if (unit === undefined) {
        PART.lastIndex = 0
        return fail('domain.duration.unknownUnit', {unit: quoteInput(rawUnit, 12)})
      }
      if (unit >= lastUnit) {
        PART.lastIndex = 0
        return fail('domain.duration.order')
      }
      lastUnit = unit
      const scale = 10n ** BigInt(fraction.length)
      const scaled = BigInt(whole + fraction) * BigInt(unit)
      if (scaled % scale !== 0n) {
        PART.lastIndex = 0
        return fail('domain.duration.subMillisecond')
      }
      total += scaled / scale
      if (PART.lastIndex === start) break // defensive: the sticky regex always advances
    }
    PART.lastIndex = 0
  }

  if (total > BigInt(Number.MAX_SAFE_INTEGER)) fail('domain.duration.tooLarge', {max: formatDuration(Number.MAX_SAFE_INTEGER)})
  const ms = Number(total)
  if (bounds.min !== undefined && ms < bounds.min) fail('domain.duration.tooSmall', {min: formatDuration(bounds.min)})
  if (bounds.max !== undefined && ms > bounds.max) fail('domain.duration.tooLarge', {max: formatDuration(bounds.max)})
  return ms
}

/**
 * A compact human form that `parseDuration` reads back: `0`, `250ms`, `2s`, `1.5s`, `5m`,
 * `1h30m`, `7d`, `1d2h3m4.005s`. Fractions of a millisecond are rounded.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms)
  const sign = ms < 0 ? '-' : ''
  let rest = Math.round(Math.abs(ms))
  if (rest === 0) return '0'
  if (rest < SECOND) return `${sign}${rest}ms`
  const parts: string[] = []
  for (const [unit, size] of [
    ['d', DAY],
    ['h', HOUR],
    ['m', MINUTE],
  ] as const) {
    const count = Math.floor(rest / size)
    if (count > 0) parts.push(`${count}${unit}`)
    rest -= count * size
  }
  if (rest > 0) {
    const seconds = Math.floor(rest / SECOND)
    const millis = rest % SECOND
    parts.push(millis === 0 ? `${seconds}s` : `${seconds}.${String(millis).padStart(3, '0').replace(/0+$/, '')}s`)
  }
  return sign + parts.join('')
}

/**
 * A duration for people to read, not to type back: its two largest units, rounded (9d23h59m59.999s
 * is `10d`, 1h29m31s is `1h30m`, 2.4567s is `2.5s`). `formatDuration` stays exact, for messages
 * that quote a limit.
 */
export function formatDurationForPeople(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms)
  const abs = Math.abs(ms)
  const step = abs >= DAY ? HOUR : abs >= HOUR ? MINUTE : abs >= MINUTE ? SECOND : abs >= 10 * SECOND ? SECOND : abs >= SECOND ? 100 : 1
  return formatDuration(Math.round(ms / step) * step)
}
