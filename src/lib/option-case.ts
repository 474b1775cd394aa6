/**
 * Enumerated flag and argument values are read in any case (`--status past_due`, `--operator mtn`,
 * `--channel whatsapp`, `--env LIVE`), as gh and the Stripe CLI do: before oclif checks a value
 * against its `options`, a value that matches one of them case-insensitively is replaced by it.
 * Values that match none are left as typed, so oclif's own message lists what is accepted.
 */
interface OptionSpec {
  options?: readonly string[]
  char?: string
  type?: string
}

function canonical(value: string, options: readonly string[] | undefined): string {
  if (!options || options.includes(value)) return value
  return options.find((option) => option.toLowerCase() === value.toLowerCase()) ?? value
}

export function canonicalOptionValues(
  argv: readonly string[],
  flags: Record<string, OptionSpec>,
  args: Record<string, OptionSpec> = {},
): string[] {
  // Every flag that takes a value, so that its value is never counted as a positional argument.
  const byToken = new Map<string, OptionSpec>()
  for (const [name, spec] of Object.entries(flags)) {
    if (spec.type !== 'option') continue
    byToken.set(`--${name}`, spec)
    if (spec.char) byToken.set(`-${spec.char}`, spec)
  }
  const positional = Object.values(args)
  const out: string[] = []
  let position = 0
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]
    if (token === '--') {
      out.push(...argv.slice(i))
      break
    }
    const equals = token.indexOf('=')
    if (token.startsWith('-') && equals > 0 && byToken.has(token.slice(0, equals))) {
      out.push(`${token.slice(0, equals)}=${canonical(token.slice(equals + 1), byToken.get(token.slice(0, equals))!.options)}`)
    } else if (byToken.has(token) && i + 1 < argv.length) {
      out.push(token, canonical(argv[i + 1], byToken.get(token)!.options))
      i++
    } else if (!token.startsWith('-')) {
      out.push(canonical(token, positional[position]?.options))
      position++
    } else {
      out.push(token)
    }
  }
  return out
}
