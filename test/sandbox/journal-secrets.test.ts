/**
 * The request journal keeps no secret, whatever carries it: one of each kind the sandbox mints or
 * accepts (API keys, webhook signing secrets, the admin token, inspector login codes, session
 * cookies, CSRF tokens, upload URL signatures, PINs) is sent in a header, a query, a path and a
 * body, and comes back in answers; then every view is scanned for it whole: `svc sandbox requests`
 * (lines and --json), `requests get` (each entry, human and --json), the live stream (what `logs
 * tail`, `serve --log` and the inspector read), the inspector's own stream, and the data file's
 * bytes. The answer that made a secret still carries it whole (to whoever asked for it).
 */
import {existsSync, mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {ORIGIN_HEADER} from '../../src/contract/sandbox-inspector.js'
import {runInProcess} from '../helpers/in-process.js'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

/** One secret: its kind (for the failure's message) and its value. */
interface Secret {
  kind: string
  value: string
  /** How it shows when it is not a value of its own (a PIN: after `pin`, however the text quotes it). */
  pattern?: RegExp
}

/** The text of a server-sent events stream, read until `stop`. */
function readStream(url: string, token: string) {
  const controller = new AbortController()
  let text = ''
  const done = fetch(url, {headers: {authorization: `Bearer ${token}`}, signal: controller.signal})
    .then(async (response) => {
      const decoder = new TextDecoder()
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, {stream: true})
    })
    .catch(() => undefined)
  return {
    get text() {
      return text
    },
    stop: async () => {
      controller.abort()
      await done
    },
  }
}

const whole = (secrets: Secret[], text: string, where: string) => {
  for (const secret of secrets) expect(secret.pattern ? secret.pattern.exec(text)?.[0] : text.includes(secret.value) ? secret.value : undefined, `${secret.kind} whole in ${where}`).toBeUndefined()
}

describe('the request journal keeps no secret', () => {
  let dir: string
  let h: TestSandbox
  const secrets: Secret[] = []
  const minted: Record<string, string> = {}

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-journal-secrets-'))
    h = await startTestSandbox({dataFile: join(dir, 'sandbox.db')})
  })
  afterAll(async () => {
    await h?.close().catch(() => undefined)
    rmSync(dir, {recursive: true, force: true})
  })

  it('masks every kind, in headers, queries, paths and bodies, in every view and in the data file', async () => {
    const {sb} = h
    const admin = {authorization: `Bearer ${sb.adminToken}`, 'content-type': 'application/json'}
    const stream = readStream(`${sb.adminUrl}/requests/stream?all=true`, sb.adminToken)
    const changes = readStream(`${sb.adminUrl}/inspector/changes`, sb.adminToken)
    await expect.poll(() => stream.text.includes(': connected') && changes.text.includes(': connected')).toBe(true)

    // Minted: each answer that makes one carries it whole (its one place).
    const key = (await (await fetch(`${sb.adminUrl}/keys`, {method: 'POST', headers: admin, body: '{"environment":"SANDBOX"}'})).json()) as {secret: string}
    const liveKey = (await (await fetch(`${sb.adminUrl}/keys`, {method: 'POST', headers: admin, body: '{"environment":"LIVE"}'})).json()) as {secret: string}
    const endpoint = (await (await fetch(`${sb.adminUrl}/webhook-endpoints`, {method: 'POST', headers: admin, body: '{"url":"http://127.0.0.1:9/hooks"}'})).json()) as {id: string; secret: string}
    const rotated = (await (await fetch(`${sb.adminUrl}/webhook-endpoints/${endpoint.id}/rotate`, {method: 'POST', headers: admin})).json()) as {secret: string}
    const link = (await (await fetch(`${sb.adminUrl}/inspector/login-links`, {method: 'POST', headers: admin})).json()) as {url: string}
    // As `svc sandbox inspector` asks for one (svc's own request: in the views with --all).
    const spent = (await (await fetch(`${sb.adminUrl}/inspector/login-links`, {method: 'POST', headers: {...admin, [ORIGIN_HEADER]: 'inspector'}})).json()) as {url: string}
    const login = await fetch(spent.url, {redirect: 'manual'})
    expect(login.status).toBe(303)
    const sessionId = /svc_inspector=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![1]
    const session = (await (await fetch(`${sb.adminUrl}/inspector/session`, {headers: {cookie: `svc_inspector=${sessionId}`}})).json()) as {csrf: string}
    const upload = (await (
      await fetch(`${sb.url}/v1/files/upload-url`, {
        method: 'POST',
        headers: {'x-api-key': sb.keys.sandbox, 'content-type': 'application/json'},
        body: JSON.stringify({filename: 'logo.png', content_type: 'image/png', size: 4}),
      })
    ).json()) as {upload_url: string}
    const signature = new URL(upload.upload_url).searchParams.get('signature')!
    // Its signed URL used as it is meant to be (the signature in the query).
    await fetch(upload.upload_url, {method: 'PUT', headers: {'content-type': 'image/png'}, body: Buffer.from('nope')})
    Object.assign(minted, {key: key.secret, liveKey: liveKey.secret, webhook: endpoint.secret, rotated: rotated.secret})
    secrets.push(
      {kind: 'API key (SANDBOX)', value: key.secret},
      {kind: 'API key (LIVE)', value: liveKey.secret},
      {kind: 'the sandbox key of this start', value: sb.keys.sandbox},
      {kind: 'webhook signing secret', value: endpoint.secret},
      {kind: 'webhook signing secret, rotated', value: rotated.secret},
      {kind: 'admin token', value: sb.adminToken},
      {kind: 'login code', value: new URL(link.url).searchParams.get('code')!},
      {kind: 'session cookie', value: sessionId},
      {kind: 'CSRF token', value: session.csrf},
      {kind: 'upload URL signature', value: signature},
    )
    expect(key.secret).toMatch(/^svc_sk_test_/)
    expect(session.csrf.length).toBeGreaterThan(16)

    // The customer's PIN, typed on the handset (a wrong one, then the right one).
    const live = (await (
      await fetch(`${sb.url}/v1/payments`, {
        method: 'POST',
        headers: {'x-api-key': sb.keys.live, 'content-type': 'application/json'},
        body: JSON.stringify({amount: 1500, phone_number: '670000001', operator: 'MTN'}),
      })
    ).json()) as {id: string}
    for (const pin of ['9876', '1234']) {
      const typed = await fetch(`${sb.adminUrl}/phone/${live.id}/pin`, {method: 'POST', headers: admin, body: JSON.stringify({pin})})
      expect(typed.status).toBe(200)
    }

    // Each secret carried every way a request can: a header whose name says nothing, a query, a
    // path (whose 404 answer names it back), a JSON body (whose 400 answer may quote it), a form.
    for (const {value} of secrets) {
      const headers = {'x-api-key': sb.keys.sandbox, 'x-note': value, 'content-type': 'application/json'}
      await fetch(`${sb.url}/v1/payments?note=${encodeURIComponent(value)}&limit=1`, {headers})
      await fetch(`${sb.url}/v1/payments/${encodeURIComponent(value)}`, {headers})
      await fetch(`${sb.url}/v1/payments`, {method: 'POST', headers, body: JSON.stringify({amount: 100, phone_number: '670000001', operator: 'MTN', note: value})})
      await fetch(`${sb.adminUrl}/allowlist`, {method: 'POST', headers: {...admin, 'content-type': 'application/x-www-form-urlencoded'}, body: `cidr=${encodeURIComponent(value)}`})
    }
    const pinForm = await fetch(`${sb.url}/v1/payments?pin=4321`, {headers: {'x-api-key': sb.keys.sandbox}})
    expect(pinForm.status).toBe(200)
    secrets.push({kind: 'PIN', value: '', pattern: /pin\W{0,6}(9876|1234|4321)/})

    // Every view.
    const env = {SVC_SANDBOX_URL: sb.url, SVC_SANDBOX_ADMIN_TOKEN: sb.adminToken}
    const cli = (args: string[]) => h.cli(dir, 'sandbox', runInProcess)(args, {env})
    const listed = await cli(['sandbox', 'requests', '--all', '--json', '--limit', '10000'])
    expect(listed.exitCode, listed.stderr).toBe(0)
    const entries = JSON.parse(listed.stdout) as Array<{id: string; path: string; query: string; key: string | null; response_body: string | null}>
    expect(entries.length).toBeGreaterThan(4 * 10)
    expect(entries.map((e) => `${(e as {origin?: string}).origin} ${e.path}`)).toContain('inspector /_admin/inspector/login-links')
    whole(secrets, listed.stdout, 'requests --json')
    const lines = await cli(['sandbox', 'requests', '--all', '--limit', '10000'])
    whole(secrets, lines.stdout + lines.stderr, 'requests')
    for (const entry of entries) {
      const one = await cli(['sandbox', 'requests', 'get', entry.id, '--json'])
      whole(secrets, one.stdout + one.stderr, `requests get ${entry.id} --json`)
      const human = await cli(['sandbox', 'requests', 'get', entry.id])
      whole(secrets, human.stdout + human.stderr, `requests get ${entry.id}`)
    }
    await expect.poll(() => stream.text.split('event: request').length - 1).toBeGreaterThanOrEqual(entries.length)
    await stream.stop()
    await changes.stop()
    whole(secrets, stream.text, 'the live stream (logs tail, serve --log)')
    whole(secrets, changes.text, 'the inspector’s stream')

    // Masked as elsewhere in svc: the prefix and the last four.
    const created = entries.find((e) => e.path === '/_admin/keys' && e.response_body?.includes('"environment":"SANDBOX"'))!
    expect(JSON.parse(created.response_body!).secret).toBe(`svc_sk_test_…${key.secret.slice(-4)}`)
    const queried = entries.find((e) => e.query.includes(`note=${encodeURIComponent(endpoint.secret).slice(0, 6)}`))!
    expect(queried.query).toContain(`whsec_…`)
    expect(entries.some((e) => e.query === 'pin=…')).toBe(true)

    // The data file, once closed: its bytes. The endpoints' table keeps their signing secrets (the
    // sandbox signs with them), so for those the journal's own texts are looked for: a query, a
    // header, a quoted JSON value as the journal would hold it.
    await h.close()
    const bytes = Buffer.concat([join(dir, 'sandbox.db'), join(dir, 'sandbox.db-wal')].filter(existsSync).map((file) => readFileSync(file)))
    const text = bytes.toString('latin1')
    expect(bytes.includes(Buffer.from('\\"pin\\":\\"…\\"'))).toBe(true)
    whole(
      secrets.filter((s) => !s.value.startsWith('whsec_')),
      text,
      'the data file',
    )
    for (const value of [endpoint.secret, rotated.secret]) {
      for (const quoted of [`note=${encodeURIComponent(value)}`, `"x-note":"${value}`, `\\"secret\\":\\"${value}`, `\\"note\\":\\"${value}`])
        expect(text.includes(quoted), `${quoted} in the data file`).toBe(false)
    }
  })
})

describe('a secret the sandbox accepts rather than mints', () => {
  it('an admin token given at start (any printable text) is masked by its value', async () => {
    const token = 'my-own-admin-token-0123456789'
    const h = await startTestSandbox({adminToken: token})
    try {
      await fetch(`${h.sb.url}/v1/payments?t=${token}`, {headers: {'x-api-key': h.sb.keys.sandbox, 'x-note': token}})
      const [entry] = h.sb.journal.list({}, 1)
      expect(entry.query).toBe('t=…6789')
      expect(entry.request_headers['x-note']).toBe('…6789')
      expect(JSON.stringify(entry)).not.toContain(token)
    } finally {
      await h.close()
    }
  })
})
