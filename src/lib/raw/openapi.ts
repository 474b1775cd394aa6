/** `svc openapi`: the service's own description, or a table of its operations. */
import type {Context} from '../context.js'
import {t} from '../i18n/index.js'

export interface OperationRow {
  method: string
  path: string
  operation_id: string | null
  summary: string | null
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options']

export function operationsOf(document: unknown): OperationRow[] {
  const paths = (document as {paths?: Record<string, Record<string, {operationId?: string; summary?: string}>>})?.paths ?? {}
  const rows: OperationRow[] = []
  for (const [path, item] of Object.entries(paths)) {
    for (const method of HTTP_METHODS) {
      const op = item?.[method]
      if (op) rows.push({method: method.toUpperCase(), path, operation_id: op.operationId ?? null, summary: op.summary ?? null})
    }
  }
  return rows
}

export async function showOpenApi(ctx: Context, options: {operations: boolean}): Promise<void> {
  const client = await ctx.client({auth: false})
  const {data} = await client.request<unknown>({method: 'GET', path: '/v1/openapi.json', auth: false})
  if (!options.operations) return ctx.io.outJson(data)
  const rows = operationsOf(data)
  await ctx.io.result(rows, async () =>
    ctx.io.out(
      await ctx.io.table(
        [t('raw.ops.method'), t('raw.ops.path'), t('raw.ops.operation'), t('raw.ops.summary')],
        rows.map((r) => [r.method, r.path, r.operation_id ?? '', r.summary ?? '']),
        [{kind: 'id'}, {kind: 'id'}, {priority: 2}, {kind: 'text', priority: 1}],
      ),
    ),
  )
}
