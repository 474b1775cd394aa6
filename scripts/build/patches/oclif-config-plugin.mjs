/**
 * @oclif/core sorts each plugin's commands with localeCompare, and that first call costs every
 * start-up ~8 ms of ICU collator set-up. For ids made of a-z, 0-9, '-' and ':' (ours and the
 * plugins') ICU's root order is plain character order with punctuation ('-' then ':') before
 * digits before letters; compareIds gives exactly that, and asks localeCompare for anything else.
 */
const COMPARE_IDS = `
const __svcIdRank = (c) => (c === 45 ? 1 : c === 58 ? 2 : c >= 48 && c <= 57 ? c - 38 : c >= 97 && c <= 122 ? c - 77 : -1);
function __svcCompareIds(a, b) {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const x = __svcIdRank(a.charCodeAt(i));
    const y = __svcIdRank(b.charCodeAt(i));
    if (x < 0 || y < 0) return a.localeCompare(b);
    if (x !== y) return x - y;
  }
  for (let i = Math.min(a.length, b.length); i < Math.max(a.length, b.length); i++) {
    if (__svcIdRank((a.length > b.length ? a : b).charCodeAt(i)) < 0) return a.localeCompare(b);
  }
  return a.length - b.length;
}
`

export default {
  file: '@oclif/core/lib/config/plugin.js',
  replace: [
    ['.sort((a, b) => a.id.localeCompare(b.id))', '.sort((a, b) => __svcCompareIds(a.id, b.id))'],
    // The manifest of the one command a call names, when bin/run.cjs found one (dist/manifests/).
    [
      "const p = (0, node_path_1.join)(this.root, `${dotfile ? '.' : ''}oclif.manifest.json`);",
      "const p = (!dotfile && this.isRoot && globalThis[Symbol.for('svc.manifest')]) || (0, node_path_1.join)(this.root, `${dotfile ? '.' : ''}oclif.manifest.json`);",
    ],
  ],
  append: COMPARE_IDS,
}
