/** The contract's one list of event types, and what derives from it. */
import {describe, expect, it} from 'vitest'

import WebhooksTrigger from '../../../src/commands/webhooks/trigger.js'
import {EVENT_TYPES, EVENTS, eventTypeForStatus, isEventType, isSettlementEvent} from '../../../src/contract/events.js'

describe('event types', () => {
  it('a settlement gives the event of its final status; anything else gives none', () => {
    expect(eventTypeForStatus('SUCCESS')).toBe('payment.success')
    expect(eventTypeForStatus('FAILED')).toBe('payment.failed')
    for (const status of ['PENDING', 'UNSPECIFIED', 'success', '']) expect(eventTypeForStatus(status)).toBeUndefined()
  })

  it('every type says what it is about, and a settlement type maps back to its status', () => {
    expect(Object.keys(EVENTS).sort()).toEqual([...EVENT_TYPES].sort())
    for (const type of EVENT_TYPES) {
      const event = EVENTS[type]
      if (event.data === 'payment') expect(eventTypeForStatus(event.status)).toBe(type)
    }
  })

  it('tells event types and settlement events from other strings', () => {
    expect(EVENT_TYPES.every(isEventType)).toBe(true)
    expect(isEventType('payment.refunded')).toBe(false)
    expect(isSettlementEvent('payment.success')).toBe(true)
    expect(isSettlementEvent('invoice.paid')).toBe(false)
  })

  it('`svc webhooks trigger` offers exactly the contract’s types', () => {
    expect(WebhooksTrigger.args.event.options).toEqual([...EVENT_TYPES])
  })
})
