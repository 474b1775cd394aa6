#!/usr/bin/env node
// `svc --version` is answered here, before oclif loads: shell loops and CI call it often.
const args = process.argv.slice(2)
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v' || args[0] === 'version')) {
  const {readFileSync} = await import('node:fs')
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`${pkg.name}/${pkg.version} ${process.platform}-${process.arch} node-${process.version}\n`)
} else {
  const {execute} = await import('@oclif/core')
  await execute({dir: import.meta.url})
}
