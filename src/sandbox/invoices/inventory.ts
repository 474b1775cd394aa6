/**
 * The inventory link (spec, "What the service does" 6). Inventory has no public endpoint: it is
 * seen and stocked through the admin surface (`/_admin/inventory`, the dashboard stand-in).
 *
 * - Create: each line item is synced into the environment's catalogue by name (trimmed, case and
 *   spacing ignored); a new name becomes a catalogue item with quantity 0 and a SKU derived from it.
 * - Publish: the invoice's quantities are reserved for 7 days of sandbox time.
 * - Paid: the reservation is confirmed: reserved and on-hand quantities both go down. If the
 *   reservation had already expired, the stock is deducted directly (the sale happened).
 * - Expiry (never paid) or cancel: the reservation is released.
 * available_quantity = quantity − reserved_quantity; below zero, open invoices promise more than
 * is on hand (nothing is refused for it: stock is the merchant's business, not the customer's).
 */
import {t} from '../i18n/index.js'
import type {SandboxContext} from '../context.js'
import {newPlainId} from '../ids.js'
import type {Collection} from '../store.js'
import type {Environment} from '../types.js'
import type {LineItem} from './schemas.js'

export const RESERVATION_MS = 7 * 24 * 60 * 60 * 1000

export interface InventoryItem {
  /** The SKU. */
  id: string
  sku: string
  name: string
  quantity: number
  reserved_quantity: number
  created_at: string
  updated_at: string
}

export interface Reservation {
  id: string
  invoice_id: string
  lines: Array<{sku: string; quantity: number}>
  status: 'active' | 'confirmed' | 'released'
  created_at: string
  expires_at: string
  /** Why it ended: paid, expired, cancelled. */
  ended_by?: 'paid' | 'expired' | 'cancelled'
  ended_at?: string
  task_id?: number
}

export function itemView(item: InventoryItem) {
  return {
    sku: item.sku,
    name: item.name,
    quantity: item.quantity,
    reserved_quantity: item.reserved_quantity,
    available_quantity: item.quantity - item.reserved_quantity,
    created_at: item.created_at,
    updated_at: item.updated_at,
  }
}

function nameKey(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase()
}

function skuBase(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
  return slug === '' ? 'ITEM' : slug
}

export class Inventory {
  constructor(private readonly ctx: SandboxContext) {
    ctx.store.defineCollection<InventoryItem>('environment', 'inventory_items', {name: (item) => nameKey(item.name)})
    ctx.store.defineCollection<Reservation>('environment', 'inventory_reservations', {invoice_id: (r) => r.invoice_id, status: (r) => r.status})
    ctx.scheduler.define('inventory.release', (p: {environment: Environment; id: string}) => this.end(p.environment, p.id, 'expired'))
  }

  items(environment: Environment): Collection<InventoryItem> {
    return this.ctx.store.env(environment).collection<InventoryItem>('inventory_items')
  }

  reservations(environment: Environment): Collection<Reservation> {
    return this.ctx.store.env(environment).collection<Reservation>('inventory_reservations')
  }

  /** By SKU (exact, case-insensitive) or by name. */
  find(environment: Environment, skuOrName: string): InventoryItem | undefined {
    const items = this.items(environment)
    const bySku = items.get(skuOrName.toUpperCase())
    if (bySku) return bySku
    const key = nameKey(skuOrName)
    return items.find({name: key})[0]
  }

  /** The catalogue item for `name`, created (quantity 0) when new. */
  sync(environment: Environment, name: string): InventoryItem {
    const existing = this.find(environment, name)
    if (existing && nameKey(existing.name) === nameKey(name)) return existing
    const items = this.items(environment)
    const base = skuBase(name)
    let sku = base
    for (let n = 2; items.get(sku); n++) sku = `${base}-${n}`
    const now = this.ctx.clock.iso()
    return items.insert({id: sku, sku, name: name.trim().replace(/\s+/g, ' '), quantity: 0, reserved_quantity: 0, created_at: now, updated_at: now})
  }

  syncItems(environment: Environment, lines: readonly LineItem[]): void {
    for (const line of lines) this.sync(environment, line.name)
  }

  /** Set the on-hand quantity (the dashboard's stock count); creates the item when `skuOrName` is a new name. */
  setQuantity(environment: Environment, skuOrName: string, quantity: number): InventoryItem {
    const item = this.find(environment, skuOrName) ?? this.sync(environment, skuOrName)
    return this.items(environment).update(item.id, (i) => {
      i.quantity = quantity
      i.updated_at = this.ctx.clock.iso()
    })!
  }

  private lines(environment: Environment, items: readonly LineItem[]): Reservation['lines'] {
    const totals = new Map<string, number>()
    for (const line of items) {
      const sku = this.sync(environment, line.name).sku
      totals.set(sku, (totals.get(sku) ?? 0) + line.quantity)
    }
    return [...totals].map(([sku, quantity]) => ({sku, quantity}))
  }

  private adjust(environment: Environment, lines: Reservation['lines'], reserved: 1 | -1 | 0, onHand: -1 | 0): void {
    const now = this.ctx.clock.iso()
    for (const line of lines) {
      this.items(environment).update(line.sku, (item) => {
        item.reserved_quantity += reserved * line.quantity
        item.quantity += onHand * line.quantity
        item.updated_at = now
      })
    }
  }

  /** At publish: reserve the invoice's quantities for 7 days. */
  reserve(environment: Environment, invoiceId: string, items: readonly LineItem[]): Reservation {
    const now = this.ctx.clock.now()
    const lines = this.lines(environment, items)
    const reservation: Reservation = {
      id: newPlainId('rsv'),
      invoice_id: invoiceId,
      lines,
      status: 'active',
      created_at: this.ctx.clock.iso(now),
      expires_at: this.ctx.clock.iso(now + RESERVATION_MS),
    }
    this.adjust(environment, lines, 1, 0)
    reservation.task_id = this.ctx.scheduler.schedule(now + RESERVATION_MS, 'inventory.release', {environment, id: reservation.id})
    return this.reservations(environment).insert(reservation)
  }

  private ofInvoice(environment: Environment, invoiceId: string): Reservation | undefined {
    return this.reservations(environment).find({invoice_id: invoiceId}).at(-1)
  }

  /** The invoice is paid: confirm the reservation (or deduct directly once it has expired). */
  confirm(environment: Environment, invoiceId: string, items: readonly LineItem[]): void {
    const reservation = this.ofInvoice(environment, invoiceId)
    if (reservation?.status === 'active') {
      this.end(environment, reservation.id, 'paid')
      return
    }
    if (reservation?.status === 'confirmed') return
    this.adjust(environment, this.lines(environment, items), 0, -1)
  }

  /** The invoice is cancelled: release what it holds. */
  release(environment: Environment, invoiceId: string): void {
    const reservation = this.ofInvoice(environment, invoiceId)
    if (reservation?.status === 'active') this.end(environment, reservation.id, 'cancelled')
  }

  private end(environment: Environment, id: string, why: NonNullable<Reservation['ended_by']>): void {
    const reservation = this.reservations(environment).get(id)
    if (!reservation || reservation.status !== 'active') return
    if (why !== 'expired' && reservation.task_id !== undefined) this.ctx.scheduler.cancel(reservation.task_id)
    this.adjust(environment, reservation.lines, -1, why === 'paid' ? -1 : 0)
    this.reservations(environment).update(id, (r) => {
      r.status = why === 'paid' ? 'confirmed' : 'released'
      r.ended_by = why
      r.ended_at = this.ctx.clock.iso()
      delete r.task_id
    })
  }

  /** A message for the admin surface when `skuOrName` is unknown. */
  static notFoundMessage(skuOrName: string): string {
    return t('sandboxInvoices.inventory.notFound', {item: skuOrName})
  }
}
