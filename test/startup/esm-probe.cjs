// `node -r ./esm-probe.cjs …`: when the process exits, writes to $SVC_ESM_PROBE the internal ESM
// loader modules Node loaded (its resolver, translators, module jobs), one per line. A call that
// stays in CommonJS loads none of them; internal/modules/esm/utils is part of Node's bootstrap.
'use strict'
const out = process.env.SVC_ESM_PROBE
if (out) {
  process.on('exit', () => {
    const loaded = process.moduleLoadList.filter((m) => m.startsWith('NativeModule internal/modules/esm/') && !m.endsWith('/esm/utils'))
    require('node:fs').writeFileSync(out, loaded.map((m) => m.slice('NativeModule '.length)).join('\n'))
  })
}
