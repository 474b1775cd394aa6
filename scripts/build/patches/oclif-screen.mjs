// The terminal's width, asked when oclif wraps help or an error: reading it at load created
// process.stdout and process.stderr at every start-up (~2.5 ms, src/lib/io/process-streams.ts).
export default {
  file: '@oclif/core/lib/screen.js',
  replace: [
    [
      'exports.stdtermwidth = columns || termwidth(process.stdout);\nexports.errtermwidth = columns || termwidth(process.stderr);',
      "Object.defineProperty(exports, 'stdtermwidth', {get: () => columns || termwidth(process.stdout), enumerable: true});\nObject.defineProperty(exports, 'errtermwidth', {get: () => columns || termwidth(process.stderr), enumerable: true});",
    ],
  ],
  append: '',
}
