// The command a person can paste to run this one again (retry hints). PURE: no imports.

const SAFE = /^[A-Za-z0-9_@%+=:,./-]+$/

/** One argument quoted for a POSIX shell: as is when plain, else in single quotes. */
export function shellQuote(arg: string): string {
  if (arg !== '' && SAFE.test(arg)) return arg
  return `'${arg.replace(/'/g, `'\\''`)}'`
}

/**
 * `svc …` exactly as invoked (`argv`: the context's), ready to paste: every flag kept, so a retry
 * does what the first run meant (`--publish --channel EMAIL` included). A key given with
 * `--api-key` is never printed: it becomes `"$SVC_API_KEY"`. Flags named in `replace` are dropped
 * with their value and `append` is added at the end (`--idempotency-key KEY`).
 */
export function retryCommand(options: {argv: readonly string[]; replace?: string[]; append?: string[]}): string {
  const argv = options.argv
  const replace = new Set(options.replace ?? [])
  const out: string[] = ['svc']
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    const [name, inline] = arg.startsWith('--') ? [arg.split('=')[0]!, arg.includes('=')] : [arg, false]
    if (name === '--api-key') {
      out.push('--api-key "$SVC_API_KEY"')
      if (!inline) i++
      continue
    }
    if (replace.has(name)) {
      if (!inline) i++
      continue
    }
    out.push(shellQuote(arg))
  }
  out.push(...(options.append ?? []).map(shellQuote))
  return out.join(' ')
}
