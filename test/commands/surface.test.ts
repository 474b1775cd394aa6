/**
 * The command surface (commands, flags, their types, args) as a snapshot: a change of interface
 * shows up in review as a change of test/command-surface.json. Update it deliberately with
 * `npx vitest run test/commands/surface.test.ts -u` (CI never writes snapshots).
 */
import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

interface ManifestFlag {
  type: 'boolean' | 'option'
  char?: string
  multiple?: boolean
  options?: string[]
  required?: boolean
  allowNo?: boolean
  default?: unknown
  helpGroup?: string
}

describe('command surface', () => {
  it('matches the committed snapshot', async () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../../oclif.manifest.json'), 'utf8'))
    const surface: Record<string, unknown> = {}
    for (const id of Object.keys(manifest.commands).sort()) {
      const command = manifest.commands[id]
      const flags: Record<string, unknown> = {}
      for (const name of Object.keys(command.flags).sort()) {
        const f = command.flags[name] as ManifestFlag
        flags[name] = {
          type: f.type,
          ...(f.char ? {char: f.char} : {}),
          ...(f.multiple ? {multiple: true} : {}),
          ...(f.options ? {options: f.options} : {}),
          ...(f.required ? {required: true} : {}),
          ...(f.allowNo ? {allowNo: true} : {}),
          ...(f.default !== undefined ? {default: f.default} : {}),
        }
      }
      const args = Object.fromEntries(
        Object.entries(command.args ?? {}).map(([name, a]) => [name, {required: Boolean((a as {required?: boolean}).required)}]),
      )
      surface[id] = {args, flags}
    }
    await expect(`${JSON.stringify(surface, null, 2)}\n`).toMatchFileSnapshot('../command-surface.json')
  })
})
