// The svc sandbox inspector's page script: bundled into one file, app.js, that the page loads (its
// CSP allows only that file: no inline code, no dependency). It reads and drives the sandbox
// through its admin surface (/_admin/…) with the session cookie, calling only the routes the admin
// contract names (admin.ts). Each request, payment and outbox message has its own address:
// #/requests/ID, #/payments/ID, #/outbox/ID.
import {REFERENCE_BASE} from '../../../contract/sandbox-inspector.js'
import {AdminFailure, adminUrl, api} from './admin.js'
import {byId, h, say, type Child} from './dom.js'
import {eventsPage, outboxPage} from './events.js'
import {paymentsPage} from './payments.js'
import {phone, phonePage, ringingOf} from './phone.js'
import {requestsPage} from './requests.js'
import {settingsPage} from './settings.js'
import {PAGES, addressOf, state, t, type PageName} from './state.js'

const RENDER: Record<PageName, () => Promise<Child>> = {
  requests: requestsPage,
  payments: paymentsPage,
  phone: phonePage,
  events: eventsPage,
  outbox: outboxPage,
  settings: settingsPage,
}
const main = byId('main')

// Frame ------------------------------------------------------------------------------------------
function nav(): void {
  const list = h('ul', {}, [
    ...PAGES.map((p) => h('li', {}, h('a', {href: `#/${p}`, 'aria-current': p === state.page ? 'page' : undefined}, t(`nav.${p}`)))),
    // The API reference is a page of its own (Swagger UI on /v1/openapi.json).
    h('li', {}, h('a', {href: `${REFERENCE_BASE}/`}, t('nav.reference'))),
  ])
  byId('nav').replaceChildren(list)
  byId('nav').setAttribute('aria-label', t('nav'))
  byId('lang-label').textContent = t('language')
  byId('brand').textContent = state.business ? `${state.business} · svc sandbox` : 'svc sandbox'
  document.title = `${t(`nav.${state.page}`)} · ${t('title')}`
  document.documentElement.lang = state.language
}

let rendering = Promise.resolve()
function render(): Promise<void> {
  rendering = rendering.then(async () => {
    nav()
    const page = state.page
    const address = addressOf()
    state.drawing = address
    try {
      const content = await RENDER[page]()
      // The address changed meanwhile: the render queued by that change draws the page it names.
      if (address !== addressOf()) return
      main.replaceChildren(h('h1', {}, t(`nav.${page}`)), ...(([content] as unknown[]).flat(Infinity) as Array<Node | string>).filter(Boolean))
    } catch (error) {
      const message = (error as AdminFailure).status === 401 ? t('loggedOut') : t('error', {message: (error as Error).message})
      main.replaceChildren(h('h1', {}, t(`nav.${page}`)), h('p', {class: 'bad'}, message))
    }
  })
  return rendering
}
state.render = render

// #/PAGE, or #/PAGE/ID for one request, payment or outbox message.
function route(): void {
  const [page, ...rest] = location.hash.replace(/^#\/?/, '').split('/')
  const next = (PAGES as readonly string[]).includes(page) ? (page as PageName) : 'requests'
  let id = ''
  try {
    id = decodeURIComponent(rest.join('/'))
  } catch {
    // A mangled address: the page without an item.
  }
  if (next !== state.page || id !== state.target) state.detail = null
  state.page = next
  state.target = id
  say('')
  render()
}

// Live updates: server-sent events; each page reads its data again (the phone only when its calls change).
let refresh: ReturnType<typeof setTimeout> | undefined
function listen(): void {
  const source = new EventSource(adminUrl('GET /_admin/inspector/changes'))
  const live = byId('live')
  // "Auto-updating", never "Live": LIVE is an environment here.
  source.onopen = () => {
    live.dataset.live = 'on'
    live.textContent = t('live')
    live.title = t('liveTitle')
  }
  source.onerror = () => {
    live.dataset.live = 'off'
    live.textContent = ''
  }
  source.addEventListener('change', () => {
    clearTimeout(refresh)
    refresh = setTimeout(async () => {
      if (state.page === 'settings') return
      if (state.page === 'phone' && ringingOf((await api('GET /_admin/phone')).data) === phone.ringing) return
      // Not while someone types in a field of the page.
      const active = document.activeElement
      if (active && main.contains(active) && /INPUT|SELECT|TEXTAREA/.test(active.tagName)) return
      render()
    }, 100)
  })
  state.live = source
}

async function start(language: 'en' | 'fr'): Promise<void> {
  try {
    const session = await api('GET /_admin/inspector/session', {query: {language}})
    Object.assign(state, {csrf: session.csrf, messages: session.messages, language: session.language, business: session.business_name})
  } catch {
    state.messages = {}
  }
  ;(byId('lang') as HTMLSelectElement).value = state.language
  if (!state.live) listen()
  route()
}

byId('lang').addEventListener('change', (event) => {
  const chosen = (event.target as HTMLSelectElement).value as 'en' | 'fr'
  localStorage.setItem('svc-inspector-language', chosen)
  start(chosen)
})
window.addEventListener('hashchange', route)
const chosen = localStorage.getItem('svc-inspector-language')
start(chosen === 'en' || chosen === 'fr' ? chosen : navigator.language?.toLowerCase().startsWith('fr') ? 'fr' : 'en')
