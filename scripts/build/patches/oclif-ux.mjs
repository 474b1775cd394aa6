// ux.action (oclif's spinner, which we do not use: ours is io.spinner) was made at load, and
// making it created process.stdout and process.stderr: now on first use.
export default {
  file: '@oclif/core/lib/ux/index.js',
  replace: [
    ['colorizeJson: colorize_json_1.default,', 'get colorizeJson() { return colorize_json_1.default; },'],
    ['const ACTION_TYPE = (', 'const __svcActionType = () => ('],
    [
      "exports.action = ACTION_TYPE === 'spinner' ? new spinner_1.default() : new simple_1.default();",
      "let __svcAction;\nconst __svcGetAction = () => (__svcAction ??= __svcActionType() === 'spinner' ? new spinner_1.default() : new simple_1.default());\nObject.defineProperty(exports, 'action', {get: __svcGetAction, enumerable: true, configurable: true});",
    ],
    ['    action: exports.action,', '    get action() { return __svcGetAction(); },'],
  ],
  append: '',
}
