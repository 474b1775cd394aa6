// The API's messages are English whatever language the process that started the sandbox uses:
// `svc --lang fr sandbox serve` must not hand French `message`s to every client.
import {afterEach, describe, expect, it} from 'vitest'

import {getLocale, registerCatalogue, setLocale} from '../../src/lib/i18n/index.js'
import {fr} from '../../src/lib/i18n/fr/index.js'
import {startTestSandbox, type Sandbox} from '../helpers/sandbox.js'

let sb: Sandbox | undefined
const before = getLocale()
afterEach(async () => {
  setLocale(before)
  await sb?.close()
})

describe('sandbox API language', () => {
  it('answers in English when the hosting process runs in French', async () => {
    registerCatalogue('fr', fr)
    setLocale('fr')
    sb = (await startTestSandbox()).sb
    const response = await fetch(`${sb.url}/v1/payments`, {
      method: 'POST',
      headers: {'x-api-key': sb.keys.sandbox, 'content-type': 'application/json'},
      body: JSON.stringify({amount: 0, phone_number: '237670000001', operator: 'MTN'}),
    })
    const body = (await response.json()) as {message: string; errors: {field: string; message: string}[]}
    expect(response.status).toBe(400)
    expect(body.message).toMatch(/amount/)
    expect(body.errors[0].message).toMatch(/integer|at least|whole/i)
    expect(`${body.message} ${body.errors[0].message}`).not.toMatch(/montant|entier/i)
  })
})
