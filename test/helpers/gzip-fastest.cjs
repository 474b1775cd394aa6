/**
 * Preloaded (`NODE_OPTIONS=--require …`) into `npm pack` by test/package/install.test.ts: every
 * gzip stream the process makes compresses at level 1 (zlib's fastest) instead of the level 9
 * npm's tarball writer asks for. The tarball holds the same files, read back the same way by
 * `npm install`; only its compression costs less (level 9 was ~2.5 s of the pack's ~7 s of CPU).
 * It patches node:zlib's Gzip class, which npm's tar library looks up each time it makes a stream.
 */
'use strict'
const zlib = require('node:zlib')

const Gzip = zlib.Gzip
zlib.Gzip = class FastestGzip extends Gzip {
  constructor(options) {
    super({...options, level: zlib.constants.Z_BEST_SPEED})
  }
}
