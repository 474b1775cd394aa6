/**
 * The dashboard stand-in actions behind `svc sandbox keys|webhooks|allowlist|fees|balance|
 * approve|decline|clock|inventory|outbox`. Each is one admin request; the output is the admin
 * surface's JSON with --json, else a table or a key/value block.
 */
import type {Context} from '../context.js'
import {InputError} from '../errors.js'
import {getLocale, isMessageKey, statusLabel, t, type MessageKey} from '../i18n/index.js'
import type {Column} from '../io/table.js'
import {formatXaf} from '../payments/amount.js'
import type {Payment} from '../payments/types.js'
import {formatDateTime} from '../time/date.js'
import {formatDurationForPeople, parseDuration} from '../time/duration.js'
import {SNAPSHOT_NAME} from '../../contract/sandbox-admin.js'
import type {Scope} from '../../contract/keys.js'
import type {AdminClockState, AdminEnvironment, AdminLanguage, BusinessUpdate} from '../../contract/sandbox-admin-routes.js'
import {localAdmin} from './admin.js'

type Row = Record<string, unknown>

/** The sandbox clock as the admin surface answers it. */
type ClockView = AdminClockState

/**
 * A value as people read it: times in the locale's form (as `pay status` shows them); lists as
 * `a, b, c`; a stored file (a logo) as its type, size and address; any other object as
 * `key value` pairs. Never raw JSON: that is what --json is for (docs/conventions.md).
 */
function cell(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (Array.isArray(value)) return value.map(cell).join(', ')
  if (typeof value === 'object') {
    const record = value as Row
    if (typeof record.content_type === 'string' && typeof record.size === 'number') {
      return [record.content_type, formatBytes(record.size), record.url].filter(Boolean).join(', ')
    }
    return Object.entries(record)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => `${k} ${cell(v)}`)
      .join(', ')
  }
  if (typeof value === 'string' && ISO_TIME.test(value)) return formatDateTime(value, getLocale())
  return String(value)
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} kB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}

/**
 * How each field's column fits a narrow terminal (io/table.ts): ids, keys and amounts whole;
 * free text (addresses, names, scopes) cut first; the rest dropped by priority, the later
 * columns of a view first.
 */
const COLUMN_KINDS: Record<string, Column['kind']> = {
  id: 'id',
  invoice_id: 'id',
  key: 'id',
  secret: 'id',
  cidr: 'id',
  sku: 'id',
  phone_number: 'id',
  balance: 'amount',
  fees_total: 'amount',
  url: 'text',
  pay_url: 'text',
  recipient: 'text',
  name: 'text',
  scopes: 'text',
  lines: 'text',
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/

/** A field's label: the column's name from the catalogue (`local.col.<field>`), as tables and `pay status` show it. */
function label(field: string): string {
  const key = `local.col.${field}`
  return isMessageKey(key) ? t(key) : field.toUpperCase().replaceAll('_', ' ')
}

/** Fields whose value is a payment or invoice status: shown in the person's language. */
const STATUS_FIELDS = new Set(['status', 'outcome', 'then'])

/** A field's value as people read it: a status translated, everything else by `cell`. */
function fieldCell(field: string, value: unknown): string {
  return STATUS_FIELDS.has(field) && typeof value === 'string' ? statusLabel(value) : cell(value)
}

/** A table of the given columns (header from the catalogue key `local.col.<column>`). */
export async function renderRows(ctx: Context, rows: Row[], columns: string[]): Promise<string> {
  return ctx.io.table(
    columns.map(label),
    rows.map((row) => columns.map((c) => fieldCell(c, row[c]))),
    columns.map((c) => ({kind: COLUMN_KINDS[c] ?? 'fixed'})),
  )
}

/** One record as a detail view: labels from the catalogue, aligned, values as people read them. */
export function renderObject(value: Row): string {
  return renderDetails(Object.entries(value).flatMap(([field, v]) => (v === undefined ? [] : [[label(field), fieldCell(field, v)] as [string, string]])))
}

/** A detail view as `invoice get` and `pay status` print them: catalogue labels, aligned. */
function renderDetails(rows: Array<[string, string]>): string {
  const width = Math.max(...rows.map(([label]) => label.length))
  return rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n')
}

function renderClock(state: ClockView): string {
  return renderDetails([
    [t('local.clock.now'), formatDateTime(state.now, getLocale())],
    [t('local.clock.offset'), formatDurationForPeople(state.offset_ms)],
    [t('local.clock.pending'), String(state.pending_tasks)],
  ])
}

/**
 * An admin answer for a person or, with --json, a script. A list (`columns` given) is, as every
 * list of svc, a bare array under --json, and a next-page hint on stderr when the sandbox has
 * more (docs/conventions.md); any other answer is its object.
 */
export async function show(ctx: Context, body: unknown, columns?: string[], emptyKey?: MessageKey): Promise<void> {
  const page = body as {data?: Row[]; offset?: number; has_more?: boolean}
  const data = page?.data
  if (columns && Array.isArray(data)) {
    await ctx.io.result(data, async () => {
      if (data.length === 0 && emptyKey) return ctx.io.err(t(emptyKey))
      ctx.io.out(await renderRows(ctx, data, columns))
    })
    if (page.has_more) ctx.io.err(t('local.list.more', {next: (page.offset ?? 0) + data.length}))
    return
  }
  await ctx.io.result(body, () => ctx.io.out(renderObject(body as Row)))
}

function environment(value: string | undefined): AdminEnvironment | undefined {
  return value ? (value.toUpperCase() as AdminEnvironment) : undefined
}

export async function keysCreate(ctx: Context, flags: {env: string; scopes?: string}): Promise<void> {
  // As typed: the sandbox checks each against the contract's scopes and names the field.
  const scopes = flags.scopes?.split(',').map((s) => s.trim()).filter(Boolean) as Scope[] | undefined
  const body = await (await localAdmin(ctx)).call('POST /_admin/keys', {
    body: {environment: environment(flags.env)!, ...(scopes ? {scopes} : {})},
  })
  await ctx.io.result(body, () =>
    ctx.io.out(
      renderDetails([
        [t('local.col.id'), body.id],
        [t('local.col.environment'), body.environment],
        [t('local.col.key'), body.key],
        [t('local.col.secret'), body.secret],
        [t('local.col.scopes'), body.scopes.join(', ')],
        [t('local.col.created_at'), formatDateTime(body.created_at, getLocale())],
      ]),
    ),
  )
  ctx.io.note(t('local.keys.shownOnce'))
}

export async function keysList(ctx: Context, flags: {env?: string}): Promise<void> {
  const body = await (await localAdmin(ctx)).call('GET /_admin/keys', {query: {environment: environment(flags.env)}})
  await show(ctx, body, ['id', 'environment', 'key', 'scopes', 'revoked', 'created_at'], 'local.keys.none')
}

export async function keysRevoke(ctx: Context, id: string): Promise<void> {
  await show(ctx, await (await localAdmin(ctx)).call('POST /_admin/keys/{keyId}/revoke', {params: {keyId: id}}))
}

export async function webhooksAdd(ctx: Context, url: string, flags: {env: string}): Promise<void> {
  const body = await (await localAdmin(ctx)).call('POST /_admin/webhook-endpoints', {body: {url, environment: environment(flags.env)}})
  await show(ctx, body)
}

export async function webhooksList(ctx: Context, flags: {env?: string}): Promise<void> {
  const body = await (await localAdmin(ctx)).call('GET /_admin/webhook-endpoints', {query: {environment: environment(flags.env)}})
  await show(ctx, body, ['id', 'url', 'environment', 'secret', 'rotating', 'created_at'], 'local.webhooks.none')
}

export async function webhooksRemove(ctx: Context, id: string): Promise<void> {
  await show(ctx, await (await localAdmin(ctx)).call('DELETE /_admin/webhook-endpoints/{endpointId}', {params: {endpointId: id}}))
}

export async function webhooksRotate(ctx: Context, id: string): Promise<void> {
  await show(ctx, await (await localAdmin(ctx)).call('POST /_admin/webhook-endpoints/{endpointId}/rotate', {params: {endpointId: id}, body: {}}))
}

export async function allowlistAdd(ctx: Context, cidr: string): Promise<void> {
  await show(ctx, await (await localAdmin(ctx)).call('POST /_admin/allowlist', {body: {cidr}}))
}

export async function allowlistList(ctx: Context): Promise<void> {
  await show(ctx, await (await localAdmin(ctx)).call('GET /_admin/allowlist'), ['cidr', 'created_at'], 'local.allowlist.none')
}

export async function allowlistRemove(ctx: Context, cidr: string): Promise<void> {
  await show(ctx, await (await localAdmin(ctx)).call('DELETE /_admin/allowlist', {query: {cidr}}))
}

/** A fee percentage: 0 to 100, decimals allowed ("2.5"). */
export function parsePercent(input: string, field: string): number {
  const value = /^\d{1,3}(\.\d{1,4})?$/.test(input.trim()) ? Number(input) : Number.NaN
  if (!(value >= 0 && value <= 100)) throw new InputError(t('local.fees.percent', {flag: `--${field}`, value: input}), {field})
  return value
}

export async function feesSet(ctx: Context, flags: {percent?: string; fixed?: number; absorb?: boolean}): Promise<void> {
  if ((flags.percent === undefined) === (flags.fixed === undefined)) {
    throw new InputError(t('local.fees.oneOf'), {field: 'percent'})
  }
  const body =
    flags.percent === undefined
      ? {mode: 'fixed' as const, value: flags.fixed!}
      : {mode: 'percent' as const, value: parsePercent(flags.percent, 'percent')}
  await show(ctx, await (await localAdmin(ctx)).call('PUT /_admin/fees', {body: {...body, ...(flags.absorb === undefined ? {} : {absorb_fees: flags.absorb})}}))
}

export async function feesShow(ctx: Context): Promise<void> {
  await show(ctx, await (await localAdmin(ctx)).call('GET /_admin/fees'))
}

export async function balance(ctx: Context, flags: {env?: string}): Promise<void> {
  const body = await (await localAdmin(ctx)).call('GET /_admin/balance', {query: {environment: environment(flags.env)}})
  await ctx.io.result(body.data, async () => {
    const rows = body.data.map((b) => ({
      ...b,
      balance: formatXaf(Number(b.balance), getLocale()),
      fees_total: formatXaf(Number(b.fees_total), getLocale()),
    }))
    ctx.io.out(await renderRows(ctx, rows, ['environment', 'balance', 'fees_total', 'collections']))
  })
}

export async function decide(ctx: Context, paymentId: string, decision: 'approve' | 'decline'): Promise<void> {
  const payment = (await (await localAdmin(ctx)).call(`POST /_admin/payments/{paymentId}/${decision}`, {params: {paymentId}})) as Payment
  await ctx.io.result(payment, async () => {
    const {renderPayment} = await import('../payments/render.js')
    ctx.io.out(await renderPayment(ctx.io, payment))
  })
}

export async function clockAdvance(ctx: Context, by: string): Promise<void> {
  const ms = parseDuration(by, 'duration')
  const state = await (await localAdmin(ctx)).call('POST /_admin/clock/advance', {body: {ms}})
  await ctx.io.result(state, () => ctx.io.out(renderClock(state)))
}

/**
 * `svc sandbox reset [--all]`: empty the data, keeping keys, endpoints and settings; `--all`
 * empties those too, and the sandbox mints a new key per environment: the sandbox key goes into
 * the profile this sandbox owns (`local`, when it points at this sandbox), both are shown once, like `keys create`.
 */
export async function reset(ctx: Context, flags: {all: boolean}): Promise<void> {
  const admin = await localAdmin(ctx)
  const body = await admin.call('POST /_admin/reset', {body: {all: flags.all}})
  let profileUpdated = false
  let profileName: string | undefined
  if (body.keys) {
    const [{requireRunningSandbox}, {readConfig}, {saveProfile}] = await Promise.all([
      import('./running.js'),
      import('../config/store.js'),
      import('../config/profiles.js'),
    ])
    // The profile this sandbox saved and owns (`local`, `local-PORT`…), when it still points here.
    const entry = requireRunningSandbox(ctx).entry
    const owned = entry ? readConfig(ctx.configDir).profiles[entry.profile] : undefined
    if (entry && owned?.base_url === entry.base_url) {
      await saveProfile(ctx.configDir, entry.profile, {...owned, api_key: body.keys.sandbox}, {makeCurrent: 'if-none', clock: ctx.clock})
      profileUpdated = true
      profileName = entry.profile
    }
  }
  const keys = body.keys
  await ctx.io.result({...body, profile_updated: profileUpdated}, () => {
    if (!keys) return ctx.io.note(t('local.reset.data'))
    ctx.io.out(renderObject({sandbox_key: keys.sandbox, live_key: keys.live}))
    ctx.io.note(t('local.reset.all'))
    ctx.io.note(t(profileUpdated ? 'local.reset.profileUpdated' : 'local.reset.profileNotUpdated', {profile: profileName ?? 'local'}))
  })
}

function snapshotName(name: string): string {
  if (!SNAPSHOT_NAME.test(name)) throw new InputError(t('local.snapshot.name', {name}), {field: 'NAME'})
  return name
}

export async function snapshotSave(ctx: Context, name: string): Promise<void> {
  const body = await (await localAdmin(ctx)).call('POST /_admin/snapshots', {body: {name: snapshotName(name)}})
  await ctx.io.result(body, () => ctx.io.note(t('local.snapshot.saved', {name})))
}

export async function snapshotRestore(ctx: Context, name: string): Promise<void> {
  const body = await (await localAdmin(ctx)).call('POST /_admin/snapshots/{name}/restore', {params: {name: snapshotName(name)}})
  const {counts} = body
  await ctx.io.result(body, () =>
    ctx.io.note(
      t('local.snapshot.restored', {
        name,
        payments: counts.payments,
        invoices: counts.invoices,
        events: counts.events,
        endpoints: counts.webhook_endpoints,
        clock: formatDateTime(body.clock.now, getLocale()),
      }),
    ),
  )
}

export async function snapshotList(ctx: Context): Promise<void> {
  await show(ctx, await (await localAdmin(ctx)).call('GET /_admin/snapshots'), ['name', 'created_at', 'bytes'], 'local.snapshot.none')
}

export async function snapshotDelete(ctx: Context, name: string): Promise<void> {
  const body = await (await localAdmin(ctx)).call('DELETE /_admin/snapshots/{name}', {params: {name: snapshotName(name)}})
  await ctx.io.result(body, () => ctx.io.note(t('local.snapshot.deleted', {name})))
}

export async function clockShow(ctx: Context): Promise<void> {
  const state = await (await localAdmin(ctx)).call('GET /_admin/clock')
  await ctx.io.result(state, () => ctx.io.out(renderClock(state)))
}

export async function inventoryList(ctx: Context, flags: {env?: string}): Promise<void> {
  const body = await (await localAdmin(ctx)).call('GET /_admin/inventory', {query: {environment: environment(flags.env)}})
  await show(ctx, body, ['sku', 'name', 'quantity', 'reserved_quantity', 'available_quantity', 'updated_at'], 'local.inventory.none')
}

export async function inventorySet(ctx: Context, item: string, quantity: number, flags: {env?: string}): Promise<void> {
  await show(
    ctx,
    await (await localAdmin(ctx)).call('PUT /_admin/inventory/{item}', {params: {item}, query: {environment: environment(flags.env)}, body: {quantity}}),
  )
}

export async function inventoryReservations(ctx: Context, flags: {env?: string; invoice?: string}): Promise<void> {
  const body = await (await localAdmin(ctx)).call('GET /_admin/inventory/reservations', {
    query: {environment: environment(flags.env), invoice_id: flags.invoice, limit: 100},
  })
  await show(ctx, body, ['id', 'invoice_id', 'lines', 'status', 'expires_at'], 'local.inventory.noReservations')
}

export async function outbox(ctx: Context, flags: {env?: string; invoice?: string; channel?: string; limit: number; offset?: number}): Promise<void> {
  const body = await (await localAdmin(ctx)).call('GET /_admin/outbox', {
    query: {
      environment: environment(flags.env),
      invoice_id: flags.invoice,
      channel: flags.channel as 'EMAIL' | 'WHATSAPP' | undefined,
      limit: flags.limit,
      offset: flags.offset,
    },
  })
  await show(ctx, body, ['created_at', 'channel', 'recipient', 'invoice_id', 'trigger', 'pay_url'], 'local.outbox.none')
}

/** The business's settings in the dashboard stand-in (its customers' language). */
export async function businessShow(ctx: Context): Promise<void> {
  await show(ctx, await (await localAdmin(ctx)).call('GET /_admin/business'))
}

export async function businessSet(ctx: Context, flags: {language?: string; name?: string; logo?: string}): Promise<void> {
  const body: BusinessUpdate = {}
  if (flags.language !== undefined) body.language = flags.language as AdminLanguage
  if (flags.name !== undefined) {
    const name = flags.name.trim()
    // Shown on documents and in messages to customers: no control characters, a sane length.
    if (name === '' || name.length > 100 || /[\u0000-\u001f\u007f]/.test(name))
      throw new InputError(t('core.error.invalidFlag', {flag: '--name', reason: t('local.business.nameRule')}), {field: 'name'})
    body.name = name
  }
  if (flags.logo !== undefined) {
    // Checked as uploads are (extension, size, first bytes), then PNG or JPEG only: the PDF
    // cannot embed WebP.
    const {checkUploadFile} = await import('../files/upload.js')
    const file = await checkUploadFile(flags.logo, 'logo')
    if (file.contentType !== 'image/png' && file.contentType !== 'image/jpeg')
      throw new InputError(t('local.business.logoType', {path: flags.logo}), {field: 'logo'})
    if (file.size > LOGO_MAX_BYTES) throw new InputError(t('local.business.logoTooBig', {path: flags.logo, size: file.size, max: LOGO_MAX_BYTES}), {field: 'logo'})
    body.logo_base64 = Buffer.from(file.bytes).toString('base64')
  }
  if (Object.keys(body).length === 0) throw new InputError(t('local.business.nothing'), {field: 'name'})
  await show(ctx, await (await localAdmin(ctx)).call('PUT /_admin/business', {body}))
}

/** The sandbox keeps logos of at most 1 MB (with the business's data). */
const LOGO_MAX_BYTES = 1024 * 1024
