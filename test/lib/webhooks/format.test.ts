import {describe, expect, it} from 'vitest'
import {
  formatForwardReport,
  formatPendingSummary,
  formatReceivedReport,
  formatRejectedReport,
} from '../../../src/lib/webhooks/index.js'

const at = new Date(2025, 5, 1, 14, 3, 9)
const base = {at, eventId: 'evt_1', type: 'payment.success', url: 'http://localhost:3000/', attempt: 1}

describe('listener lines', () => {
  it('give time, type, id, the app status and latency; say when and why it retries', () => {
    expect(formatForwardReport({...base, ok: true, status: 200, latencyMs: 1.234})).toBe(
      `14:03:09  payment.success  ${'evt_1'.padEnd(28)}  [200]      1.2 ms`,
    )
    expect(formatForwardReport({...base, attempt: 2, ok: false, status: 503, latencyMs: 3, retryInMs: 2000})).toBe(
      `14:03:09  payment.success  ${'evt_1'.padEnd(28)}  [503]      3.0 ms, attempt 2: trying again in 2 s`,
    )
    expect(
      formatForwardReport({...base, ok: false, error: 'connection refused', latencyMs: 0.4, retryInMs: 500}),
    ).toContain('unreachable (connection refused), attempt 1: trying again in 500 ms')
  })

  it('describe skipped, duplicate and refused deliveries, and what is pending at exit', () => {
    const received = {at, eventId: 'evt_1', webhookId: 'evt_1', type: 'payment.failed', source: 'inbound' as const}
    expect(formatReceivedReport({...received, outcome: 'duplicate'})).toContain('duplicate')
    expect(formatReceivedReport({...received, outcome: 'filtered'})).toContain('--events')
    expect(formatReceivedReport({...received, outcome: 'no_route'})).toContain('--forward-to')
    expect(formatReceivedReport({...received, outcome: 'accepted'})).toBeUndefined()
    expect(formatRejectedReport({at, reason: 'signature_mismatch', message: 'Signature mismatch: x'})).toBe(
      '14:03:09  refused a delivery (401): Signature mismatch: x',
    )
    expect(formatPendingSummary([])).toMatch(/Nothing pending/)
    const pending = {webhookId: 'w', type: 'payment.success', url: 'u', attempts: 3, receivedAt: at}
    expect(formatPendingSummary([{...pending, eventId: 'evt_a'}, {...pending, eventId: 'evt_b'}])).toBe(
      '2 events not yet delivered to your app: evt_a, evt_b',
    )
  })
})
