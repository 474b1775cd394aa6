// bin/run.cjs flushes stdout after every command: only a stdout that exists can hold anything
// (bin/run.cjs, watchStdio, knows which exist).
export default {
  file: '@oclif/core/lib/flush.js',
  replace: [['async function _flush() {', "async function _flush() {\n    if (process[Symbol.for('svc.stdio.unmade')]?.has('stdout'))\n        return;"]],
  append: '',
}
