// What a built binary carries, as one line: scripts/binary/build.mjs writes it beside the binary
// (`<binary>.build`), and test/helpers/binary.ts builds the binary again when the line it would
// write now differs. dist/'s build id (a hash of its code: scripts/build.mjs), a hash of
// package.json and package-lock.json (the version `--version` prints, the dependencies the archive
// holds), the Node it is built from (the binary is a copy of it), and a hash of scripts/binary/
// (the launcher, its snapshot entry, the build).
import {createHash} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

/** @param {string} root the repository */
export function binaryStamp(root) {
  const hash = (paths) => {
    const h = createHash('sha256')
    for (const path of paths) h.update(path).update(readFileSync(join(root, path)))
    return h.digest('hex').slice(0, 16)
  }
  const launcher = readdirSync(join(root, 'scripts/binary'))
    .sort()
    .map((name) => `scripts/binary/${name}`)
  const {svcBuild} = JSON.parse(readFileSync(join(root, 'dist/package.json'), 'utf8'))
  return `${svcBuild} ${hash(['package.json', 'package-lock.json'])} ${process.version} ${hash(launcher)}`
}
