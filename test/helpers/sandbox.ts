/**
 * A local sandbox for CLI tests: started in-process on 127.0.0.1:0, with the environment a CLI
 * child process needs to talk to it, and closed after.
 */
import {startSandbox, type Sandbox, type StartOptions} from '../../src/sandbox/index.js'

export interface TestSandbox {
  sb: Sandbox
  /** SVC_API_KEY / SVC_BASE_URL for a CLI run against this sandbox (sandbox key by default). */
  env(key?: 'sandbox' | 'live'): Record<string, string>
  /** Admin call (Bearer token) to inspect or drive the sandbox's state. */
  admin<T = any>(method: string, path: string, body?: unknown): Promise<T>
  /** A public-API GET with the sandbox key: to check what the server holds. */
  get<T = any>(path: string, key?: string): Promise<T>
  close(): Promise<void>
}

export async function startTestSandbox(options: StartOptions = {}): Promise<TestSandbox> {
  const sb = await startSandbox({rateLimit: 0, settleAfterMs: 200, seed: 7, ...options})
  return {
    sb,
    env: (key = 'sandbox') => ({SVC_API_KEY: sb.keys[key], SVC_BASE_URL: sb.url}),
    async admin(method, path, body) {
      const response = await fetch(`${sb.adminUrl}${path}`, {
        method,
        headers: {authorization: `Bearer ${sb.adminToken}`, ...(body === undefined ? {} : {'content-type': 'application/json'})},
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return (await response.json()) as any
    },
    async get(path, key = sb.keys.sandbox) {
      const response = await fetch(`${sb.url}${path}`, {headers: {'x-api-key': key}})
      return (await response.json()) as any
    },
    close: () => sb.close(),
  }
}
