// Simulates a machine where better-sqlite3 did not install (it is an optional dependency: a native
// module that needs a compiler where no prebuilt binary exists). Preload with
// `node --import ./test/helpers/without-sqlite.mjs` (or NODE_OPTIONS): resolving the package fails
// as it does when it is missing.
import {register} from 'node:module'

const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === 'better-sqlite3' || specifier.startsWith('better-sqlite3/')) {
    const error = new Error("Cannot find package 'better-sqlite3' imported from " + context.parentURL)
    error.code = 'ERR_MODULE_NOT_FOUND'
    throw error
  }
  return next(specifier, context)
}
`
register(`data:text/javascript,${encodeURIComponent(hooks)}`)
