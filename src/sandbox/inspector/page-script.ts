/**
 * The inspector's page script, app.js: one file bundled from the TypeScript in assets/ (app.ts and
 * what it imports) with the options in assets/bundle.json. scripts/build.mjs bundles it into
 * dist/sandbox/inspector/app.js, which a built sandbox serves; a sandbox run from the sources (tsx,
 * the tests) has no such file and bundles it here, on its first request, with esbuild (a development
 * dependency: the installed package never comes here).
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'

/** app.js bundled from the sources in `assets` (the folder holding app.ts and bundle.json). */
export async function bundlePageScript(assets: string): Promise<Buffer> {
  const {build} = await import('esbuild')
  const options = JSON.parse(readFileSync(join(assets, 'bundle.json'), 'utf8')) as {entryPoints: string[]}
  const result = await build({...options, entryPoints: options.entryPoints.map((entry) => join(assets, entry)), write: false, logLevel: 'silent'})
  return Buffer.from(result.outputFiles[0].contents)
}
