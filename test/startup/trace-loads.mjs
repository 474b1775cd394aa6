// `node --import ./trace-loads.mjs …`: appends the file path of every module the process loads
// to $SVC_TRACE_LOADS, one per line. ESM (and CommonJS reached from ESM) through a resolve hook,
// which runs on the loader thread; CommonJS require() through Module._load on the main thread.
import {appendFileSync} from 'node:fs'
import Module, {register} from 'node:module'
import {fileURLToPath} from 'node:url'

const out = process.env.SVC_TRACE_LOADS
if (out) {
  const record = (path) => appendFileSync(out, `${path}\n`)

  register(
    `data:text/javascript,${encodeURIComponent(`
      import {appendFileSync} from 'node:fs'
      import {fileURLToPath} from 'node:url'
      const out = ${JSON.stringify(out)}
      export async function resolve(specifier, context, next) {
        const result = await next(specifier, context)
        if (result.url.startsWith('file:')) appendFileSync(out, fileURLToPath(result.url) + '\\n')
        return result
      }
    `)}`,
  )

  const load = Module._load
  Module._load = function (request, parent, isMain) {
    const exports = load.call(this, request, parent, isMain)
    try {
      const path = Module._resolveFilename(request, parent, isMain)
      if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) record(path.startsWith('file:') ? fileURLToPath(path) : path)
    } catch {
      // a built-in or a virtual module: not a file
    }
    return exports
  }
}
