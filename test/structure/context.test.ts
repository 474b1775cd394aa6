/**
 * What a run depends on comes from its context, not from the module it runs in (docs/architecture.md,
 * "The context a command receives"): read in the sources of src/lib and src/commands.
 * - The language is the run's: it lives in src/lib/i18n's per-run holder (AsyncLocalStorage) and
 *   nowhere else: no module keeps a language of its own, and only the places that bind a run's
 *   language set it.
 * - Every API client is built by `ctx.clientFor` (the one `createClient` call is context.ts's), and
 *   no request leaves by a bare `fetch` but the two named below.
 * - Time is injected in one shape, the Clock of src/contract/clock.ts: no `now()` or `sleep()`
 *   option of another shape, no second Clock interface.
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {code, ROOT, sources} from './sources.js'

const files = [...sources('src/lib'), ...sources('src/commands')].filter((f) => !/^src\/lib\/i18n\/(en|fr)\//.test(f.file))

/** Lines of `files` (outside `except`) whose code matches `pattern`, as `file: line`. */
function offenders(pattern: RegExp, except: string[] = []): string[] {
  return files
    .filter((f) => !except.includes(f.file))
    .flatMap((f) =>
      code(f.text)
        .split('\n')
        .filter((line) => pattern.test(line))
        .map((line) => `${f.file}: ${line.trim()}`),
    )
}

describe('the context a command runs with', () => {
  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(150)
  })

  it('keeps the language in the per-run holder of src/lib/i18n, and only there', () => {
    const i18n = code(readFileSync(join(ROOT, 'src/lib/i18n/index.ts'), 'utf8'))
    expect(i18n).toMatch(/new AsyncLocalStorage<Language>\(\)/)
    // No module-level variable in the catalogue module: a language kept there is every run's.
    expect(i18n.split('\n').filter((line) => /^let\s/.test(line))).toEqual([])
    // Nor anywhere else: a module-level variable holding a language, or one read at load time.
    expect(offenders(/^(export\s+)?(let|var)\s+\w+\s*(:\s*Locale\b|=\s*getLocale\(\))/)).toEqual([])
    expect(offenders(/^(export\s+)?const\s+\w+\s*=\s*get(Input)?Locale\(\)/)).toEqual([])
    // Set only where a run's language is decided: the base command, the context, the catalogue.
    expect(offenders(/\bset(Input)?Locale\(/, ['src/lib/command.ts', 'src/lib/context.ts', 'src/lib/i18n/index.ts'])).toEqual([])
  })

  it('builds every API client through ctx.clientFor', () => {
    expect(offenders(/\bcreateClient\(/, ['src/lib/context.ts', 'src/lib/api/client.ts'])).toEqual([])
    expect(offenders(/\bnew\s+(ApiClient|Pacer)\(/, ['src/lib/api/client.ts'])).toEqual([])
    // Requests that are not the API's: the journal's live event stream and listen's watch line to
    // its sandbox (server-sent events, which the client does not read) and the walkthrough playing
    // the customer's browser on the checkout page. Any other bare fetch is a client built outside the context.
    expect(offenders(/(^|[^.\w])fetch\(/, ['src/lib/sandbox-admin/journal.ts', 'src/lib/webhooks/listen-session.ts', 'src/lib/walkthrough/invoice-leg.ts'])).toEqual([])
  })

  it('takes time in one shape: the Clock of src/contract/clock.ts', () => {
    expect(offenders(/\bnow\??:\s*\(\)\s*=>/)).toEqual([])
    expect(offenders(/\bsleep\??:\s*\(/)).toEqual([])
    expect(offenders(/\binterface\s+Clock\b/)).toEqual([])
    // A clock typed as a function, an object shape of its own, a number or a Date.
    expect(offenders(/\bclock\??:\s*(\(|\{\s*now|number\b|Date\b)/)).toEqual([])
  })
})
