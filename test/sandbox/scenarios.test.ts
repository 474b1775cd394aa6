/**
 * Scenarios as settings of the sandbox: kept by `reset`, in snapshots and across a restart with
 * --data; and drawing faults never shifts the seeded outcomes of other numbers.
 */
import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

import {startTestSandbox} from '../helpers/sandbox.js'

const scripted = async (h: Awaited<ReturnType<typeof startTestSandbox>>) => (await h.admin('GET', '/numbers')).data.filter((n: any) => n.scripted)

describe('scenarios are settings of the sandbox', () => {
  // Removed once every sandbox (and its checkpointer thread) is gone, as in persistence.test.ts.
  const dir = mkdtempSync(join(tmpdir(), 'svc-scenarios-'))
  afterAll(() => rmSync(dir, {recursive: true, force: true}))

  it('kept by reset, saved in snapshots and across a restart with --data', async () => {
    const dataFile = join(dir, 'sandbox.db')
    let h = await startTestSandbox({dataFile})
    try {
      await h.admin('PUT', '/numbers/670112233', {operator: 'MTN', outcome: 'PENDING'})
      await h.admin('POST', '/faults', {error: '503', route: 'POST /v1/payments'})
      await h.admin('POST', '/operators/ORANGE/down', {mode: 'slow'})
      await h.admin('POST', '/snapshots', {name: 'scenarios'})
      await h.admin('POST', '/reset', {})
      expect(await scripted(h)).toHaveLength(1)
      await h.admin('DELETE', '/faults')
      await h.admin('POST', '/snapshots/scenarios/restore')
      expect((await h.admin('GET', '/faults')).data).toHaveLength(1)
      await h.close()
      h = await startTestSandbox({dataFile})
      expect(await scripted(h)).toEqual([expect.objectContaining({phone_number: '237670112233', outcome: 'PENDING'})])
      expect((await h.admin('GET', '/faults')).data).toEqual([expect.objectContaining({route: 'POST /v1/payments', error: '503'})])
      expect((await h.admin('GET', '/operators')).data[1]).toMatchObject({operator: 'ORANGE', up: false, outage: {mode: 'slow'}})
    } finally {
      await h.close()
    }
  })

  it('drawing faults does not shift the seeded outcomes of random numbers', async () => {
    const outcomes = async (withFaults: boolean) => {
      const h = await startTestSandbox({seed: 99, settleAfterMs: 0})
      try {
        if (withFaults) await h.admin('POST', '/faults', {route: 'GET /v1/payments', error: '503', rate: 0.5})
        const ids: string[] = []
        for (let i = 0; i < 12; i++) {
          if (withFaults) await fetch(`${h.sb.url}/v1/payments`, {headers: {'x-api-key': h.sb.keys.sandbox}})
          const created = await fetch(`${h.sb.url}/v1/payments`, {
            method: 'POST',
            headers: {'x-api-key': h.sb.keys.sandbox, 'content-type': 'application/json'},
            body: JSON.stringify({amount: 100, phone_number: `6712345${String(i).padStart(2, "0")}`, operator: 'MTN'}),
          })
          ids.push(((await created.json()) as any).id)
        }
        await h.sb.clock.advance(10)
        return await Promise.all(ids.map(async (id) => {
          const p = await h.get(`/v1/payments/${id}/status`)
          return `${p.status}:${p.failure_code ?? ''}`
        }))
      } finally {
        await h.close()
      }
    }
    expect(await outcomes(true)).toEqual(await outcomes(false))
  })
})
