import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

/** A fresh SVC_CONFIG_DIR (not yet created inside: the CLI must create it 0700). */
export function tempConfigDir(): {dir: string; cleanup: () => void} {
  const parent = mkdtempSync(join(tmpdir(), 'svc-test-'))
  return {dir: join(parent, 'config'), cleanup: () => rmSync(parent, {recursive: true, force: true})}
}
