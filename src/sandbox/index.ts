/**
 * The sandbox room: the local service, a faithful, stateful implementation of the service's public
 * interface on the user's machine (like Firebase's emulators). It imports only its own files, the
 * contract (`src/contract/`: events, signing, test numbers, phone wire form, totals, keys) and its
 * npm dependencies; never the CLI (`src/lib`, `src/commands`). It speaks through its own message
 * catalogue (`./i18n/`, French registered when a sandbox starts). The CLI reaches it only by
 * `import()` of this file (`svc sandbox serve`, the walkthrough) and its types;
 * test/structure/boundaries.test.ts holds both sides to that.
 * One port serves `/v1/...` (the public API),
 * `/_admin/...` (the dashboard stand-in, Bearer admin token), and leaves `/pay/...` (checkout) and
 * `/storage/...` (uploads) to the domains that register them.
 *
 * A domain is a function of the SandboxContext that adds its routes (router), collections (store),
 * task kinds (scheduler) and events (event bus): see `BUILTIN_DOMAINS` and docs/sandbox.md.
 */
import {randomBytes, randomInt} from 'node:crypto'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {networkInterfaces} from 'node:os'
import {systemClock, type Clock} from '../contract/clock.js'
import {advertisedHost} from './advertised-host.js'
import {registerAdminRoutes} from './admin/index.js'
import {Allowlist, KeyRing} from './auth.js'
import {SandboxClock, Scheduler, type ClockState} from './clock.js'
import type {ResolvedOptions, SandboxContext, SandboxOptions} from './context.js'
import type {SandboxDomain, SandboxServices} from './domain.js'
import {EventBus} from './events.js'
import {Ledger} from './fees.js'
import {registerSandboxFrench} from './i18n/index.js'
import {registerReference} from './reference/index.js'
import {registerInspector} from './inspector/index.js'
import {invoicesDomain} from './invoices/index.js'
import {Journal} from './journal.js'
import {registerJournalRoutes, ReplayKeys} from './journal-admin.js'
import {Redactor} from './journal-redact.js'
import {registerOpenApiRoute} from './openapi.js'
import {Payments} from './payments.js'
import {registerPaymentRoutes} from './payments-routes.js'
import {seededRandom, type Random} from './random.js'
import {RateLimiter} from './rate-limit.js'
import {Router, type HandlerResult} from './router.js'
import {Scenarios} from './scenarios.js'
import {registerScenarioRoutes} from './scenarios-admin.js'
import {createRequestHandler} from './server.js'
import {openStore} from './open-store.js'
import {explainDataFileError} from './storage-errors.js'
import {SETTLED, type Store, type StoreNotice} from './store.js'
import type {Environment, JsonValue} from './types.js'

export type {ClockState} from './clock.js'
export type {StoreNotice} from './store.js'
export type {SandboxContext, SandboxOptions} from './context.js'
export type {Environment, Scope} from './types.js'
export type {Payment} from './payments.js'
export type {SandboxEvent, Delivery} from './events.js'

export type {SandboxDomain, SandboxServices} from './domain.js'

/** Domains started with every sandbox, after payments. Part 2 appends its own here. */
export const BUILTIN_DOMAINS: SandboxDomain[] = [invoicesDomain]

export interface StartOptions extends SandboxOptions {
  /**
   * The machine's clock sandbox time runs on (default the system's): a test hands the same clock
   * to the sandbox and to the CLI runs it makes (`SvcCommand.runWith({clock})`), and sets or moves
   * both at once.
   */
  clock?: Clock
  /** Webhook endpoints to register at start (their secrets come back in `webhookSecrets`). */
  webhookEndpoints?: Array<{url: string; environment?: Environment}>
  /** Extra domains (tests, embedders), after the built-in ones. */
  domains?: SandboxDomain[]
  /** Keep the request journal (default true; false: only to measure what it costs, bench/sandbox). */
  journal?: boolean
}

export interface WebhookSecret {
  id: string
  url: string
  environment: Environment
  secret: string
}

export interface SandboxClockControls {
  /** Sandbox time, ms since the epoch. */
  now(): number
  state(): ClockState
  /** Move sandbox time forward, running everything that falls due on the way, in order. */
  advance(ms: number): Promise<ClockState>
  /** Resolves once tasks started by the real timer (e.g. deliveries) have finished. */
  idle(): Promise<void>
}

export interface Sandbox {
  /** Base URL, e.g. http://127.0.0.1:8787 (paths are /v1/...). */
  url: string
  /** `${url}/pay`: hosted checkout pages (part 2). */
  payUrl: string
  /** `${url}/_admin`. */
  adminUrl: string
  adminToken: string
  /** Keys minted at this start, with every scope. */
  keys: {sandbox: string; live: string}
  /** The request journal: `subscribe` to each request as it is answered (`serve --log`). */
  journal: Pick<Journal, 'list' | 'get' | 'subscribe'>
  /** A one-time login link to the web inspector (a new one at each call). */
  inspectorLink(): string
  webhookSecrets: WebhookSecret[]
  /** What opening the data did that a person should know (an old JSON data file imported). */
  notices: StoreNotice[]
  clock: SandboxClockControls
  /** The internals, for domains and tests. */
  context: SandboxContext
  services: SandboxServices
  close(): Promise<void>
}

function resolveOptions(options: SandboxOptions): ResolvedOptions {
  const unspecified = options.faults?.unspecified
  const rate = unspecified === true ? 1 : typeof unspecified === 'number' ? unspecified : 0
  if (!(rate >= 0 && rate <= 1)) throw new RangeError('faults.unspecified must be a boolean or a rate between 0 and 1')
  const rateLimit = options.rateLimit ?? 100
  if (!Number.isInteger(rateLimit) || rateLimit < 0) throw new RangeError('rateLimit must be an integer >= 0')
  const settleAfterMs = options.settleAfterMs ?? 2000
  if (!Number.isFinite(settleAfterMs) || settleAfterMs < 0) throw new RangeError('settleAfterMs must be >= 0')
  return {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    settleAfterMs,
    seed: options.seed ?? randomInt(2 ** 31),
    rateLimit,
    dataFile: options.dataFile,
    unspecifiedRate: rate,
    businessName: options.businessName ?? 'Sandbox Business',
    warmDocuments: options.warmDocuments ?? false,
  }
}

export async function startSandbox(options: StartOptions = {}): Promise<Sandbox> {
  registerSandboxFrench()
  const resolved = resolveOptions(options)
  const store = await openStore(resolved.dataFile)
  try {
    return await startOnStore(store, resolved, options)
  } catch (error) {
    // The file's tables are first read as the start builds on them (each domain's collections as it
    // registers, the settings, the saved queue): a page damaged past the header (a kill in the
    // middle of a checkpoint whose WAL was then lost leaves pages of two moments) is met there. The
    // store closed (again, when the start's own clean-up closed it), the file named.
    await Promise.resolve()
      .then(() => store.close())
      .catch(() => {})
    throw resolved.dataFile ? explainDataFileError(resolved.dataFile, error) : error
  }
}

async function startOnStore(store: Store, resolved: ResolvedOptions, options: StartOptions): Promise<Sandbox> {
  const clock = new SandboxClock(0, options.clock ?? systemClock)
  store.persist('clock_offset_ms', () => clock.offsetMs, (value) => {
    if (typeof value === 'number') clock.restoreOffset(value)
  })
  const scheduler = new Scheduler(clock, store.tasks)
  scheduler.onChange = () => store.markDirty()

  // Separate streams per environment, so live traffic never shifts sandbox outcomes.
  const randoms: Record<Environment, Random> = {
    SANDBOX: seededRandom(resolved.seed),
    LIVE: seededRandom(resolved.seed ^ 0x5bd1e995),
  }
  store.persist(
    'random_state',
    () => ({SANDBOX: randoms.SANDBOX.state(), LIVE: randoms.LIVE.state()}),
    (value) => {
      const state = value as {SANDBOX?: number; LIVE?: number}
      if (typeof state?.SANDBOX === 'number') randoms.SANDBOX = seededRandom(state.SANDBOX)
      if (typeof state?.LIVE === 'number') randoms.LIVE = seededRandom(state.LIVE)
    },
  )

  const log = options.log ?? ((line: string) => void process.stderr.write(`${line}\n`))
  const router = new Router()
  const scenarios = new Scenarios(store, clock, resolved.seed)
  const events = new EventBus(store, clock, scheduler, {faults: scenarios, log})
  let base = ''
  const releases: Array<() => void | Promise<void>> = []
  const context: SandboxContext = {
    options: resolved,
    store,
    clock,
    scheduler,
    router,
    events,
    scenarios,
    random: (environment) => randoms[environment],
    baseUrl: () => base,
    onClose: (release) => void releases.push(release),
    log,
  }
  const keys = new KeyRing(store, clock)
  const allowlist = new Allowlist(store, clock)
  const ledger = new Ledger(store, clock)
  const payments = new Payments(context, ledger)
  registerPaymentRoutes(router, payments)
  const services: SandboxServices = {payments, ledger, keys}
  for (const domain of [...BUILTIN_DOMAINS, ...(options.domains ?? [])]) domain(context, services)
  registerOpenApiRoute(router, resolved, () => base)
  registerAdminRoutes({
    router,
    mintKeys: () => ({sandbox: keys.mint('SANDBOX').secret, live: keys.mint('LIVE').secret}),
    keys,
    allowlist,
    events,
    ledger,
    payments,
    scheduler,
    options: resolved,
    store,
    urls: () => ({url: base, payUrl: `${base}/pay`, adminUrl: `${base}/_admin`}),
  })
  registerScenarioRoutes(router, scenarios, payments)
  // Every secret out of it: those the sandbox mints by their shape, an admin token given at start by its value.
  const redactor = new Redactor()
  redactor.add(options.adminToken)
  const journal = new Journal(store, undefined, clock.machine, redactor)
  // Its last entries go to the database before the store closes (releases run before store.close).
  context.onClose(() => journal.close())
  const replays = new ReplayKeys()
  registerJournalRoutes({router, journal, keys, replays, baseUrl: () => base, machine: clock.machine})
  const inspector = registerInspector({router, context, services, journal, store, options: resolved, baseUrl: () => base})
  registerReference(router, store)
  // Every answer waits for the commit of the writes made before it (with --data: a group commit
  // per turn of the event loop), so that a write is on disk before it is acknowledged.
  // In memory, and whenever nothing is waiting for a commit, `settled()` is the one resolved
  // promise SETTLED: the answer then goes without a detour through the microtask queue.
  const afterCommit = (result: HandlerResult): HandlerResult | Promise<HandlerResult> => {
    const settled = store.settled()
    return settled === SETTLED ? result : settled.then(() => result)
  }
  for (const route of router.routes()) {
    const handler = route.handler
    route.handler = (req) => {
      const result = handler(req)
      return result instanceof Promise ? result.then(afterCommit) : afterCommit(result)
    }
  }

  /** A start that fails once the store is open: everything started so far stopped, a damaged or full file explained. */
  const abandon = async (error: unknown): Promise<never> => {
    scheduler.stop()
    events.shutdown()
    await Promise.all(releases.map((release) => release()))
    await Promise.resolve(store.close()).catch(() => {})
    throw resolved.dataFile ? explainDataFileError(resolved.dataFile, error) : error
  }

  // Every collection and task kind is defined by now: finish an import, resume the saved queue
  // (a damaged page met here: the timers and workers started so far stopped too).
  try {
    store.ready()
    scheduler.reload()
  } catch (error) {
    return abandon(error)
  }
  store.onReload(() => scheduler.reload())

  const sandboxKey = keys.mint('SANDBOX')
  const liveKey = keys.mint('LIVE')
  const webhookSecrets: WebhookSecret[] = (options.webhookEndpoints ?? []).map(({url, environment}) => {
    const endpoint = events.addEndpoint(url, environment ?? 'SANDBOX')
    return {id: endpoint.id, url: endpoint.url, environment: endpoint.environment, secret: endpoint.secret}
  })
  const adminToken = options.adminToken ?? `svc_admin_${randomBytes(24).toString('base64url')}`

  // The first write (the keys just minted, a new file's settings) is committed before anything is
  // listened to or printed: on a full disk the start fails instead of handing out keys never saved.
  const firstCommit = store.settled()
  store.flush()
  try {
    await firstCommit
  } catch (error) {
    return abandon(error)
  }

  const server: Server = createServer(
    // Idle connections kept well past a client's own keep-alive (undici: the server's hint less a
    // second or two): at 5 s, a client that computed for a few seconds on a busy machine could send
    // on a socket the server was closing that same moment (ECONNRESET). close() still ends them.
    {keepAliveTimeout: 65_000},
    createRequestHandler({
      router,
      keys,
      allowlist,
      limiter: new RateLimiter(resolved.rateLimit, () => clock.now()),
      adminToken,
      now: () => clock.now(),
      machine: clock.machine,
      faults: scenarios,
      log,
      journal: options.journal === false ? undefined : journal,
      inspector: {admits: (req, method) => inspector.admits(req, method), replayKey: (secret) => replays.take(secret)},
    }),
  )
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(resolved.port, resolved.host, () => {
        server.off('error', reject)
        resolve()
      })
    })
  } catch (error) {
    // Could not listen (a busy port): release what was started (timers, the document worker, the
    // store), so that the process can end with its error instead of living on.
    scheduler.stop()
    events.shutdown()
    await Promise.all(releases.map((release) => release()))
    await store.close()
    throw error
  }
  const address = server.address() as AddressInfo
  // Bound to every interface (0.0.0.0): URLs other machines can use, with a real address.
  base = `http://${advertisedHost(address.address, networkInterfaces())}:${address.port}`
  store.flush()

  let closed: Promise<void> | undefined
  return {
    url: base,
    payUrl: `${base}/pay`,
    adminUrl: `${base}/_admin`,
    adminToken,
    keys: {sandbox: sandboxKey.secret, live: liveKey.secret},
    journal,
    inspectorLink: () => inspector.loginLink(),
    webhookSecrets,
    notices: store.notices,
    clock: {
      now: () => clock.now(),
      state: () => scheduler.state(),
      advance: (ms) => scheduler.advance(ms),
      idle: () => scheduler.idle(),
    },
    context,
    services,
    close() {
      closed ??= (async () => {
        scheduler.stop()
        events.shutdown()
        await new Promise<void>((resolve) => {
          server.close(() => resolve())
          server.closeAllConnections()
        })
        await scheduler.idle()
        await Promise.all(releases.map((release) => release()))
        await store.close()
      })()
      return closed
    },
  }
}
