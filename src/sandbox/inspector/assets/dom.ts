// The DOM, by construction: every value reaches the page through textContent or an attribute set
// by the DOM, never through HTML (a customer named <img src=x onerror=…> is shown as those
// characters). Also the pieces every page is built of: tables, fields, links to an item's address.
import {AdminFailure, api} from './admin.js'
import {addressOf, state, t, type Detail, type PageName} from './state.js'
import type {AdminAnswer, AdminArgs, AdminRoute} from '../../../contract/sandbox-admin-routes.js'

export type Child = Node | string | number | null | undefined | false | readonly Child[]
type Attribute = string | number | boolean | null | undefined | ((event: Event) => unknown)

export function h(tag: string, attrs?: Record<string, Attribute>, ...children: Child[]): HTMLElement {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue
    if (typeof value === 'function') node.addEventListener(name.slice(2), value)
    else if (name === 'class') node.className = String(value)
    else node.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of (children as unknown[]).flat(Infinity) as Array<Node | string | number | null | undefined | false>) {
    if (child === undefined || child === null || child === false) continue
    node.append(child instanceof Node ? child : document.createTextNode(String(child)))
  }
  return node
}

export const byId = (id: string): HTMLElement => document.getElementById(id)!

export const say = (text: string, bad?: boolean): void => {
  const status = byId('status')
  status.textContent = text
  status.className = bad ? 'bad' : ''
}

export function table(headers: string[], rows: HTMLElement[], caption: string): HTMLElement {
  if (rows.length === 0) return h('p', {class: 'empty'}, t('empty'))
  return h(
    'div',
    {class: 'scroll', role: 'region', 'aria-label': caption, tabindex: 0},
    h('table', {}, h('caption', {class: 'sr'}, caption), h('thead', {}, h('tr', {}, headers.map((x) => h('th', {scope: 'col'}, x)))), h('tbody', {}, rows)),
  )
}
export const field = (label: string, control: HTMLElement): HTMLElement => h('label', {class: 'field'}, h('span', {}, label), control)
export const select = (name: string, options: Array<[string, string]>, value: string | undefined): HTMLElement =>
  h('select', {name}, options.map(([v, text]) => h('option', {value: v, selected: v === value}, text)))
export const link = (href: string, text: string): HTMLElement => h('a', {href, target: '_blank', rel: 'noopener noreferrer'}, text)

/** An event handler that says what went wrong instead of throwing. */
export const act =
  (work: (event: Event) => unknown) =>
  async (event: Event): Promise<void> => {
    event?.preventDefault?.()
    try {
      await work(event)
    } catch (error) {
      say(t('error', {message: (error as Error).message}), true)
    }
  }

/** The fields of the form an event happened in, by name. */
export function formOf(event: Event): Record<string, string> {
  return Object.fromEntries(new FormData((event.target as HTMLElement).closest('form')!)) as Record<string, string>
}

// Deep links: each page's item has its own address; the page opens it from there.
export const itemHref = (page: PageName, id: string): string => `#/${page}/${encodeURIComponent(id)}`
export const open = (page: PageName, id?: string): void => {
  location.hash = id ? itemHref(page, id) : `#/${page}`
}
/** The item the address names, once per address (null once it is closed); {missing} when the sandbox has none. */
export async function target<R extends AdminRoute>(route: R, ...args: AdminArgs<R>): Promise<Detail<AdminAnswer<R>> | null> {
  const address = state.drawing
  // The address changed while this page was being read: the render that change queued reads its own item.
  if (!state.target || address !== addressOf()) return null
  const id = state.target
  if (state.detail?.address === address) return state.detail.value as Detail<AdminAnswer<R>>
  let value: Detail<AdminAnswer<R>>
  try {
    value = await api(route, ...args)
  } catch (error) {
    if ((error as AdminFailure).status !== 404) throw error
    value = {missing: id}
  }
  // Kept only while the address still names it: a person who moved on meanwhile gets their own item.
  if (addressOf() === address) state.detail = {address, value}
  return value
}
export const isMissing = <T>(detail: Detail<T>): detail is {missing: string} => typeof detail === 'object' && detail !== null && 'missing' in detail
export const missing = (detail: {missing: string}): HTMLElement => h('p', {id: 'detail', class: 'detail bad'}, t('notFound', {id: detail.missing}))
export const permalink = (page: PageName, id: string): HTMLElement => h('a', {class: 'permalink', href: itemHref(page, id)}, t('link'))
