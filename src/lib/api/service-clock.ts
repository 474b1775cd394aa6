/**
 * The service's time: the Date header of its last answer (the local sandbox serves its own clock
 * there, so `sandbox clock advance 40d` moves "today" for the CLI too). When no answer has told
 * it yet, one small read asks; if even that fails, the run's clock.
 */
import {dateNow} from '../../contract/clock.js'
import type {ApiClient} from './client.js'

export async function serviceNow(client: ApiClient, path = '/v1/invoices'): Promise<Date> {
  if (!client.serviceNow()) await client.request({method: 'GET', path, query: {limit: 1}}).catch(() => undefined)
  return client.serviceNow() ?? dateNow(client.clock)
}
