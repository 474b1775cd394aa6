#!/usr/bin/env node
// `svc --version` is answered here, before oclif loads: shell loops and CI call it often.
const args = process.argv.slice(2)
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v' || args[0] === 'version')) {
  const {readFileSync} = await import('node:fs')
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`)
} else {
  const {execute} = await import('@oclif/core')
  await execute({dir: import.meta.url, args: globalFlagsLast(args)})
}

/**
 * `svc --profile local pay list` (cli.md writes it so) → `svc pay list --profile local`: oclif
 * wants the command id first, so leading global flags move behind it.
 */
function globalFlagsLast(argv) {
  const withValue = new Set(['--profile', '--api-key', '--base-url', '--lang'])
  const booleans = new Set(['--json', '--color', '--no-color', '--yes', '-y', '--verbose'])
  const leading = []
  let i = 0
  while (i < argv.length) {
    const arg = argv[i]
    const name = arg.split('=')[0]
    if (withValue.has(name)) {
      const takesNext = !arg.includes('=') && i + 1 < argv.length
      leading.push(...argv.slice(i, takesNext ? i + 2 : i + 1))
      i += takesNext ? 2 : 1
    } else if (booleans.has(arg)) {
      leading.push(arg)
      i += 1
    } else break
  }
  if (leading.length === 0 || i >= argv.length) return argv
  // Keep `--` and everything after it in place; put the moved flags before it.
  const rest = argv.slice(i)
  const dashdash = rest.indexOf('--')
  return dashdash === -1 ? [...rest, ...leading] : [...rest.slice(0, dashdash), ...leading, ...rest.slice(dashdash)]
}
