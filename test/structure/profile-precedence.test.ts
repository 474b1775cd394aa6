/**
 * Which profile a run uses is written once: `namedProfile` and `selectedProfileName` of
 * src/lib/config/resolve.ts (`--profile`, then `SVC_PROFILE`, then the current profile). No other
 * source reads SVC_PROFILE (the sandbox's commands that stop one or start one for a command use it too), so the order cannot drift between the key, the base URL and the
 * language a profile gives.
 */
import {describe, expect, it} from 'vitest'

import {code, sources as read} from './sources.js'

const sources = read('src')

describe('profile precedence', () => {
  it('is read in one place: src/lib/config/resolve.ts', () => {
    // A read of the variable (`env.SVC_PROFILE`, `ctx.env.SVC_PROFILE`); a child's environment
    // that drops it, or a help text that names it, is not one.
    const readers = sources.filter((f) => /\benv\.SVC_PROFILE\b/.test(code(f.text))).map((f) => f.file)
    expect(readers).toEqual(['src/lib/config/resolve.ts'])
    const resolve = code(sources.find((f) => f.file === 'src/lib/config/resolve.ts')!.text)
    expect(resolve.match(/\benv\.SVC_PROFILE\b/g)).toHaveLength(1)
  })
})
