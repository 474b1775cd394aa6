/**
 * Calendar days as `YYYY-MM-DD` strings, the unit every report counts in. Arithmetic is done on
 * the date alone (UTC midnights), so no daylight-saving change makes a day 23 or 25 hours.
 */
import {formatDate} from '../time/date.js'

export type DayZone = 'UTC' | 'local'

const DAY_MS = 24 * 60 * 60 * 1000
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

function utcMidnight(day: string): number {
  return Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)))
}

/** Whole days from `from` to `to` (positive when `to` is later). */
export function daysBetween(from: string, to: string): number {
  return Math.round((utcMidnight(to) - utcMidnight(from)) / DAY_MS)
}

export function addDays(day: string, days: number): string {
  return new Date(utcMidnight(day) + days * DAY_MS).toISOString().slice(0, 10)
}

/**
 * The calendar day of a service date: a `YYYY-MM-DD` as it is, a time as its day in `zone`;
 * undefined when unreadable.
 */
export function dayOf(value: unknown, zone: DayZone): string | undefined {
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  if (DATE_ONLY.test(text)) return Number.isNaN(utcMidnight(text)) ? undefined : text
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(Date.parse(text))) return undefined
  return formatDate(text, 'en', {timeZone: zone})
}

/** Every day from `first` to `last`, both included. */
export function dayRange(first: string, last: string): string[] {
  const out: string[] = []
  for (let day = first; daysBetween(day, last) >= 0; day = addDays(day, 1)) out.push(day)
  return out
}
