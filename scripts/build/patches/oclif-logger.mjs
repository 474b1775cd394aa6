/**
 * oclif's logger makes a `debug` instance per namespace, so loading the debug package (with
 * supports-color and tty) is part of every start-up though it prints only when DEBUG is set: the
 * one place it reads (debug/src/node.js `load`). Without DEBUG, a logger that does nothing.
 */
const NO_DEBUG = `
function __svcNoDebug() {}
`

export default {
  file: '@oclif/core/lib/logger.js',
  replace: [['const debug = (0, debug_1.default)(namespace);', 'const debug = process.env.DEBUG ? (0, debug_1.default)(namespace) : __svcNoDebug;']],
  append: NO_DEBUG,
}
