import {describe, expect, it} from 'vitest'
import {InputError} from '../../../src/lib/errors.js'
import {
  parseEventsFilter,
  parseExtraHeaders,
  parseForwardTo,
  parseHeaderLine,
  parseListenRouting,
  routeFor,
} from '../../../src/lib/webhooks/index.js'

function inputError(fn: () => unknown): InputError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return error as InputError
  }
  throw new Error('expected an InputError')
}

describe('parseForwardTo', () => {
  it('takes a default URL and per-type URLs, repeatable', () => {
    const routes = parseForwardTo([
      'http://localhost:3000/webhooks?x=1',
      'payment.failed=http://localhost:4000/failed',
    ])
    expect(routes.defaultUrl).toBe('http://localhost:3000/webhooks?x=1')
    expect(routes.byType).toEqual({'payment.failed': 'http://localhost:4000/failed'})
    expect(routeFor(routes, 'payment.failed')).toBe('http://localhost:4000/failed')
    expect(routeFor(routes, 'payment.success')).toBe('http://localhost:3000/webhooks?x=1')
    expect(routeFor(parseForwardTo(['payment.failed=http://h/f']), 'payment.success')).toBeUndefined()
  })

  it('reads a bare host:port as http and keeps "=" in query strings', () => {
    expect(parseForwardTo(['localhost:3000/hook']).defaultUrl).toBe('http://localhost:3000/hook')
    expect(parseForwardTo(['https://example.test/h?a=b']).defaultUrl).toBe('https://example.test/h?a=b')
    expect(parseForwardTo(['payment.success= localhost:3000/s ']).byType['payment.success']).toBe('http://localhost:3000/s')
  })

  it('refuses unknown types, two URLs for one type, two defaults, bad URLs and nothing at all, naming the flag', () => {
    const unknown = inputError(() => parseForwardTo(['invoice.paid=http://h/']))
    expect(unknown.field).toBe('--forward-to')
    expect(unknown.message).toContain('invoice.paid')
    expect(unknown.message).toContain('payment.success, payment.failed')
    expect(inputError(() => parseForwardTo(['payment.success=http://a/', 'payment.success=http://b/'])).message).toContain('twice')
    expect(inputError(() => parseForwardTo(['http://a/', 'http://b/'])).message).toContain('two default')
    expect(inputError(() => parseForwardTo(['ftp://a/'])).message).toContain('--forward-to')
    expect(inputError(() => parseForwardTo(['http://'])).field).toBe('--forward-to')
    expect(inputError(() => parseForwardTo([])).field).toBe('--forward-to')
  })
})

describe('parseEventsFilter', () => {
  it('splits on commas, trims, dedupes; nothing means all', () => {
    expect(parseEventsFilter('payment.success, payment.failed,payment.success')).toEqual(['payment.success', 'payment.failed'])
    expect(parseEventsFilter(['payment.failed'])).toEqual(['payment.failed'])
    expect(parseEventsFilter(undefined)).toBeUndefined()
    expect(parseEventsFilter(' , ')).toBeUndefined()
  })

  it('refuses an unknown type with --events', () => {
    const error = inputError(() => parseEventsFilter('payment.success,payment.refunded'))
    expect(error.field).toBe('--events')
    expect(error.message).toContain('payment.refunded')
  })
})

describe('headers', () => {
  it('parses "Name: value" with case-insensitive names and trimmed values', () => {
    expect(parseHeaderLine('  X-Api-Token :  abc: def  ')).toEqual(['x-api-token', 'abc: def'])
    expect(parseExtraHeaders(['X-A: 1', 'x-a: 2', 'Authorization: Bearer t'])).toEqual({
      'x-a': '1, 2',
      authorization: 'Bearer t',
    })
  })

  it('refuses malformed lines and the headers the listener sets itself, naming the flag', () => {
    for (const bad of ['no colon', ': value', 'bad name: v', 'x-a: line\nbreak']) {
      const error = inputError(() => parseExtraHeaders([bad]))
      expect(error.field).toBe('-H')
      expect(error.message).toContain('Name: value')
    }
    const reserved = inputError(() => parseExtraHeaders(['Webhook-Signature: v1,abc']))
    expect(reserved.message).toContain('webhook-signature')
    expect(inputError(() => parseHeaderLine('nope', '--header')).field).toBe('--header')
  })
})

describe('parseListenRouting', () => {
  it('puts the three flags together', () => {
    expect(
      parseListenRouting({forwardTo: ['http://localhost:3000/'], events: 'payment.failed', headers: ['X-K: v']}),
    ).toEqual({
      routes: {defaultUrl: 'http://localhost:3000/', byType: {}},
      events: ['payment.failed'],
      headers: {'x-k': 'v'},
    })
  })
})
