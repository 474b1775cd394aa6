/**
 * Invoice numbers: each invoice `invoice create` and `invoice import` make gets the profile's next
 * number, `FAC-2026-0001` (prefix, the service's year, a sequence of `invoice.width` digits), sent
 * as its `external_reference` unless the user gave one.
 *
 * A number is never given twice. The counter lives in a file per profile in the config dir
 * (`invoice-numbers/`), changed only under the config's inter-process lock (config/lock.ts): a read,
 * the next number, a write to a temporary file flushed to disk (fsync) and renamed over, the
 * directory flushed too. Only then is the number handed to the request. So four runs at once get
 * four consecutive numbers, and a run killed after its reservation (kill -9, a power cut) leaves a
 * gap in the sequence, never a number given again.
 *
 * A number is reserved for an Idempotency-Key: the same request sent again (a retry, a re-run of
 * an import row, `--idempotency-key` given twice) gets the same number back, so its body is the
 * same and the service replays it rather than refusing the key.
 */
import {createHash} from 'node:crypto'
import {mkdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

import type {Clock} from '../../contract/clock.js'
import {withFileLock} from '../config/lock.js'
import {CONFIG_FILE, ensureConfigDir} from '../config/store.js'
import {readSetting} from '../config/settings.js'
import type {ConfigData} from '../config/store.js'
import {writeFileDurably} from '../io/durable-file.js'
import type {Context} from '../context.js'
import {NetworkError} from '../errors.js'

/** Who the numbers belong to: the profile in use, or a key from the environment and its base URL (hashed). */
export interface NumberOwner {
  profileName?: string
  baseUrl: string
  apiKey?: string
}

interface CounterFile {
  version: 1
  /** Per series (`FAC-2026`), the last number given. */
  last: Record<string, number>
  /** Per Idempotency-Key, the number reserved for it (the newest KEEP_KEYS). */
  keys: Record<string, {number: string; at: string}>
}

/** Reservations remembered per profile, for re-sent requests (an import of thousands of rows re-run). */
const KEEP_KEYS = 20_000

export function counterPath(configDir: string, who: NumberOwner): string {
  const name = who.profileName
    ? `profile-${who.profileName.replace(/[^\w.-]/g, '_')}`
    : `key-${createHash('sha256').update(`${who.baseUrl}\n${who.apiKey ?? ''}`).digest('hex').slice(0, 16)}`
  return join(configDir, 'invoice-numbers', `${name}.json`)
}

/** Numbering as configured for this profile: on or off, its prefix and width. */
export interface NumberFormat {
  enabled: boolean
  prefix: string
  width: number
}

export function numberFormat(config: ConfigData, profileName: string | undefined): NumberFormat {
  return {
    enabled: readSetting(config, profileName, 'invoice.numbering') !== 'off',
    prefix: readSetting(config, profileName, 'invoice.prefix'),
    width: Number(readSetting(config, profileName, 'invoice.width')),
  }
}

export function formatNumber(format: NumberFormat, year: number, sequence: number): string {
  return `${series(format, year)}-${String(sequence).padStart(format.width, '0')}`
}

const series = (format: NumberFormat, year: number) => `${format.prefix}-${year}`

function load(path: string): CounterFile {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {version: 1, last: {}, keys: {}}
    throw error
  }
  // A counter that cannot be read is never taken for an empty one: that would give numbers again.
  const parsed = JSON.parse(text) as Partial<CounterFile>
  return {version: 1, last: {...parsed.last}, keys: {...parsed.keys}}
}

/** Written whole, flushed to disk, renamed over the old file, and the rename flushed too. */
function save(path: string, data: CounterFile): void {
  writeFileDurably(path, `${JSON.stringify(data, null, 1)}\n`)
}

/**
 * The next number of the series, reserved for `key` (or the one `key` already has), on disk
 * before it is returned.
 */
export async function reserveNumber(configDir: string, who: NumberOwner, format: NumberFormat, year: number, key: string, clock: Clock): Promise<string> {
  const at = new Date(clock.now())
  ensureConfigDir(configDir)
  const path = counterPath(configDir, who)
  mkdirSync(join(path, '..'), {recursive: true, mode: 0o700})
  return withFileLock(join(configDir, CONFIG_FILE), () => {
    const data = load(path)
    const known = data.keys[key]
    if (known) return known.number
    const name = series(format, year)
    const sequence = (data.last[name] ?? 0) + 1
    const number = formatNumber(format, year, sequence)
    data.last[name] = sequence
    data.keys[key] = {number, at: at.toISOString()}
    const keys = Object.keys(data.keys)
    for (const old of keys.slice(0, Math.max(0, keys.length - KEEP_KEYS))) delete data.keys[old]
    save(path, data)
    return number
  }, {clock})
}

/** The number the next reservation would give (a dry run shows it and reserves nothing). */
export function peekNumber(configDir: string, who: NumberOwner, format: NumberFormat, year: number): string {
  const data = load(counterPath(configDir, who))
  return formatNumber(format, year, (data.last[series(format, year)] ?? 0) + 1)
}

/**
 * The number for an invoice about to be created with `key`, as this run's profile numbers them:
 * undefined when the user gave their own reference or turned numbering off. `reserve: false` (a
 * dry run) only looks at what the next one would be. The year is the service's (its clock).
 */
export async function numberForInvoice(
  ctx: Context,
  draft: {external_reference?: string},
  key: string,
  options: {reserve: boolean; year?: number},
): Promise<string | undefined> {
  if (draft.external_reference) return undefined
  const credentials = ctx.credentials()
  const format = numberFormat(ctx.config(), credentials.profileName)
  if (!format.enabled) return undefined
  const year = options.year ?? (await serviceYear(ctx))
  const who = {profileName: credentials.profileName, baseUrl: credentials.baseUrl, apiKey: credentials.apiKey}
  return options.reserve ? reserveNumber(ctx.configDir, who, format, year, key, ctx.clock) : peekNumber(ctx.configDir, who, format, year)
}

/**
 * The service's year (its Date header: the local sandbox's clock moves it), read with one small
 * request when no answer has told it yet. A service that cannot be reached stops here, with
 * nothing sent (the create could not go either); any other failure leaves the run's clock to say.
 */
export async function serviceYear(ctx: Context): Promise<number> {
  const client = await ctx.client()
  if (!client.serviceNow()) {
    try {
      await client.request({method: 'GET', path: '/v1/invoices', query: {limit: 1}})
    } catch (error) {
      if (error instanceof NetworkError) throw error
    }
  }
  return (client.serviceNow() ?? new Date(ctx.clock.now())).getUTCFullYear()
}

/**
 * For `invoice import`: a function that reserves each row's number just before its create (the
 * service's year read once for the run), or undefined when this profile numbers nothing.
 */
export async function numbererForRun(ctx: Context): Promise<((draft: {external_reference?: string}, key: string) => Promise<string | undefined>) | undefined> {
  if (!numberFormat(ctx.config(), ctx.credentials().profileName).enabled) return undefined
  // An unreachable service is the rows' to report (the import decides what that means): the run's
  // clock gives the year meanwhile, and no row's create can go without the service anyway.
  const year = await serviceYear(ctx).catch(() => new Date(ctx.clock.now()).getUTCFullYear())
  return (draft, key) => numberForInvoice(ctx, draft, key, {reserve: true, year})
}

/**
 * For an import's `--dry-run`: each row's number as the run would give it, in the file's order,
 * reserving nothing (a row the counter already numbered keeps its number; the user's own
 * reference is the row's number). Undefined when this profile numbers nothing.
 */
export async function previewNumbersForRun(ctx: Context): Promise<((draft: {external_reference?: string}, key: string) => string | undefined) | undefined> {
  const credentials = ctx.credentials()
  const format = numberFormat(ctx.config(), credentials.profileName)
  if (!format.enabled) return undefined
  const year = await serviceYear(ctx).catch(() => new Date(ctx.clock.now()).getUTCFullYear())
  const data = load(counterPath(ctx.configDir, {profileName: credentials.profileName, baseUrl: credentials.baseUrl, apiKey: credentials.apiKey}))
  let last = data.last[series(format, year)] ?? 0
  return (draft, key) => draft.external_reference || data.keys[key]?.number || formatNumber(format, year, (last += 1))
}
