// "Try it" from the description alone: openapi-to-postmanv2 turns /v1/openapi.json into a Postman
// collection with the document's examples as the values (`parametersResolution: Example`), and
// newman runs it against a fresh sandbox with only the base URL and the test key as variables.
// Each request must get a 2xx (the collection has one request per operation: no error example is
// sent). Run twice, as a developer trying things again would.
import {createRequire} from 'node:module'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {startTestSandbox, type TestSandbox} from '../helpers/sandbox.js'

const require = createRequire(import.meta.url)

type Json = Record<string, any>

interface Converter {
  convertV2(input: {type: 'json'; data: Json}, options: Json, callback: (error: Error | null, result: {result: boolean; reason?: string; output: Array<{type: string; data: Json}>}) => void): void
}

/** The collection openapi-to-postmanv2 makes of `doc`, as its CLI does (`openapi2postmanv2 -s openapi.json -O parametersResolution=Example`: convertV2). */
function collectionOf(doc: Json): Promise<Json> {
  const converter = require('openapi-to-postmanv2') as Converter
  return new Promise((resolve, reject) =>
    converter.convertV2({type: 'json', data: doc}, {parametersResolution: 'Example', folderStrategy: 'Tags'}, (error, result) => {
      if (error) reject(error)
      else if (!result.result) reject(new Error(result.reason))
      else resolve(result.output[0]!.data)
    }),
  )
}

interface Execution {
  item: {name: string}
  request: {method: string; url: {toString(): string}}
  response?: {code: number; text(): string}
}

/** newman's run of `collection` with these variables: each request and its answer, and newman's failures. */
function run(collection: Json, variables: Record<string, string>): Promise<{executions: Execution[]; failures: unknown[]}> {
  const newman = require('newman') as {run(options: Json, callback: (error: Error | null, summary: any) => void): void}
  return new Promise((resolve, reject) =>
    newman.run({collection, envVar: Object.entries(variables).map(([key, value]) => ({key, value})), reporters: [], timeoutRequest: 30_000}, (error, summary) =>
      error ? reject(error) : resolve({executions: summary.run.executions, failures: summary.run.failures}),
    ),
  )
}

/** Every request of the collection, however it is foldered. */
function requests(items: Json[]): Json[] {
  return items.flatMap((item) => (item.item ? requests(item.item) : [item]))
}

describe('the Postman collection generated from the description', () => {
  let sandbox: TestSandbox
  beforeAll(async () => {
    sandbox = await startTestSandbox({rateLimit: 0})
  })
  afterAll(() => sandbox?.sb.close())

  it('runs green under newman against a fresh sandbox: every operation answers 2xx, twice', {timeout: 120_000}, async () => {
    const {sb} = sandbox
    const doc = (await (await fetch(`${sb.url}/v1/openapi.json`)).json()) as Json
    const collection = await collectionOf(doc)
    const items = requests(collection.item)
    const operations = Object.values<Json>(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0)
    expect(items).toHaveLength(operations)
    // What "green" means here: a 2xx for each request (the status check a tester adds first).
    for (const item of items) item.event = [{listen: 'test', script: {type: 'text/javascript', exec: ["pm.test('2xx', function () { pm.expect(pm.response.code).to.be.within(200, 299) })"]}}]
    // The variables a developer sets: where the sandbox is, and its test key (the collection's apikey auth).
    const variables = {baseUrl: sb.url, apiKey: sb.keys.sandbox}
    for (let round = 1; round <= 2; round++) {
      const {executions, failures} = await run(collection, variables)
      const answers = executions.map((e) => `${e.request.method} ${e.request.url.toString().replace(sb.url, '')} → ${e.response?.code} ${e.response && e.response.code >= 300 ? e.response.text().slice(0, 200) : ''}`.trim())
      expect(answers.filter((a) => !/ → 2\d\d$/.test(a)), `round ${round}`).toEqual([])
      expect(failures, `round ${round}`).toEqual([])
      expect(executions).toHaveLength(operations)
    }
  })
})
