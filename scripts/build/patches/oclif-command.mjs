// oclif swallows EPIPE on stdout (`svc … | head -1`) with a listener it added at load, which
// created process.stdout at every start-up: now the listener goes on when stdout is first made.
export default {
  file: '@oclif/core/lib/command.js',
  replace: [
    [
      "process.stdout.on('error', (err) => {",
      "__svcOnStdoutCreated((stdout) => stdout.on('error', (err) => {",
    ],
    ['    throw err;\n});\n/**\n * An abstract class', '    throw err;\n}));\n/**\n * An abstract class'],
  ],
  append: `
function __svcOnStdoutCreated(listen) {
const own = Object.getOwnPropertyDescriptor(process, 'stdout');
if (!own || typeof own.get !== 'function' || !own.configurable) return listen(process.stdout);
Object.defineProperty(process, 'stdout', {
  configurable: true,
  enumerable: own.enumerable,
  get() {
    Object.defineProperty(process, 'stdout', own);
    const stdout = process.stdout;
    listen(stdout);
    return stdout;
  },
});
}
`,
}
