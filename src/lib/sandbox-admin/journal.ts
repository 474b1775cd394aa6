/**
 * The request journal from the terminal: `svc sandbox requests [get ID]`, `svc sandbox logs tail`
 * and `svc sandbox serve --log` (its lines). Routes and answers: src/contract/sandbox-inspector.ts.
 */
import {INSPECTOR_ROUTES, STATUS_FILTER, type JournalEntry, type JournalQuery} from '../../contract/sandbox-inspector.js'
import type {Context} from '../context.js'
import {ExitCode, InputError, SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import {parseDuration} from '../time/duration.js'
import {localAdmin} from './admin.js'
import {requireRunningSandbox} from './running.js'
import {renderObject} from './dashboard.js'

export interface JournalFlags {
  method?: string
  path?: string
  status?: string
  since?: string
  limit?: number
  /** svc's own requests too. */
  all?: boolean
}

/** The filters as the admin surface takes them, each checked (a bad one sends nothing). */
export function journalQuery(flags: JournalFlags): JournalQuery {
  const query: JournalQuery = {}
  if (flags.method !== undefined) {
    if (!/^[A-Za-z]{1,10}$/.test(flags.method)) throw new InputError(t('local.journal.method', {got: flags.method}), {field: 'method'})
    query.method = flags.method.toUpperCase()
  }
  if (flags.path !== undefined) {
    if (!flags.path.startsWith('/')) throw new InputError(t('local.journal.path', {got: flags.path}), {field: 'path'})
    query.path = flags.path
  }
  if (flags.status !== undefined) {
    if (!STATUS_FILTER.test(flags.status)) throw new InputError(t('local.journal.status', {got: flags.status}), {field: 'status'})
    query.status = flags.status.toLowerCase()
  }
  if (flags.since !== undefined) query.since_ms = parseDuration(flags.since, 'since')
  if (flags.limit !== undefined) query.limit = flags.limit
  if (flags.all) query.all = true
  return query
}

/**
 * One request on one line: time, method, path, status, duration, environment, key (masked), and
 * for svc's own (`--all`) which part of svc made it (`svc:listen`).
 */
export function requestLine(entry: JournalEntry): string {
  const time = entry.at.slice(11, 23)
  const path = entry.query ? `${entry.path}?${entry.query}` : entry.path
  const ms = `${entry.duration_ms.toFixed(1)} ms`
  const origin = entry.origin === 'app' || entry.origin === undefined ? '' : `svc:${entry.origin}`
  return [time, entry.method.padEnd(6), String(entry.status), ms.padStart(9), entry.environment ?? '-', path, entry.key ?? '', origin].join('  ').trimEnd()
}


export async function listRequests(ctx: Context, flags: JournalFlags): Promise<void> {
  const query = journalQuery(flags)
  const body = await (await localAdmin(ctx)).call('GET /_admin/requests', {query})
  // A bare array, newest first: what a test asserts on (`--jq 'length'`).
  await ctx.io.result(body.data, () => {
    if (body.data.length === 0) return ctx.io.err(t('local.journal.none'))
    ctx.io.out(body.data.map(requestLine).join('\n'))
  })
}

export async function getRequest(ctx: Context, id: string): Promise<void> {
  const entry = await (await localAdmin(ctx)).call('GET /_admin/requests/{requestId}', {params: {requestId: id}})
  await ctx.io.result(entry, () => {
    const {request_headers, response_headers, request_body, response_body, ...rest} = entry
    const headers = (h: Record<string, string>) => Object.entries(h).map(([name, value]) => `  ${name}: ${value}`).join('\n')
    ctx.io.out(
      [
        renderObject(rest),
        '',
        t('local.journal.requestHeaders'),
        headers(request_headers),
        ...(request_body === null ? [] : ['', t('local.journal.requestBody'), request_body]),
        '',
        t('local.journal.responseHeaders'),
        headers(response_headers),
        ...(response_body === null ? [] : ['', t('local.journal.responseBody'), response_body]),
      ].join('\n'),
    )
  })
}

/** A new one-time login link to the web inspector; `open`: in the browser too. */
export async function inspectorLink(ctx: Context, flags: {open?: boolean} = {}): Promise<void> {
  const body = await (await localAdmin(ctx, 'inspector')).call('POST /_admin/inspector/login-links')
  await ctx.io.result(body, () => ctx.io.out(`${t('local.serve.inspector')}  ${body.url}`))
  if (flags.open) await (await import('./open-browser.js')).openInBrowser(ctx, body.url)
}

/**
 * `logs tail`: the journal's live stream (server-sent events), one line per request (one JSON
 * object per line with --json), until `signal` aborts (Ctrl-C, SIGTERM) or the sandbox stops.
 */
export async function tailRequests(ctx: Context, flags: JournalFlags, signal: AbortSignal): Promise<void> {
  const query = journalQuery(flags)
  const sandbox = requireRunningSandbox(ctx)
  const url = new URL(`${sandbox.base_url}${INSPECTOR_ROUTES.requestStream}`)
  for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, String(value))
  let response: Response
  try {
    response = await fetch(url, {headers: {authorization: `Bearer ${sandbox.admin_token}`, accept: 'text/event-stream'}, signal})
  } catch (error) {
    if (signal.aborted) return
    throw new SvcError(t('local.unreachable', {url: sandbox.base_url}), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_unreachable', cause: error})
  }
  if (!response.ok || !response.body) {
    // The admin surface's own error (a bad filter, a wrong token), as every admin command shows it.
    await (await localAdmin(ctx)).call('GET /_admin/requests', {query})
    throw new SvcError(t('local.unreachable', {url: sandbox.base_url}), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_unreachable'})
  }
  ctx.io.note(t('local.journal.tailing', {url: sandbox.base_url}))
  const decoder = new TextDecoder()
  let buffer = ''
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, {stream: true})
      let end: number
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        if (!block.startsWith('event: request\n')) continue
        const data = block.split('\n').find((line) => line.startsWith('data: '))
        if (!data) continue
        const entry = JSON.parse(data.slice(6)) as JournalEntry
        if (ctx.io.json) ctx.io.outJsonLine(entry)
        else ctx.io.out(requestLine(entry))
      }
    }
  } catch (error) {
    if (signal.aborted) return
    throw new SvcError(t('local.journal.streamEnded', {url: sandbox.base_url}), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_unreachable', cause: error})
  }
  if (signal.aborted) return
  throw new SvcError(t('local.journal.streamEnded', {url: sandbox.base_url}), {exitCode: ExitCode.UNAVAILABLE, code: 'sandbox_unreachable'})
}
