/**
 * The house's rules (docs/architecture.md): arrows go down, commands → lib → contract and
 * sandbox → contract; no import circles, file by file (type-only imports included) and folder by
 * folder inside src/lib. Each rule is also checked against a forbidden import written here, so a
 * checker that stopped seeing imports would fail too.
 */
import {describe, expect, it} from 'vitest'

import {circles, importsOf, sourceFiles, type ImportEdge} from './import-graph.js'

const files = sourceFiles()
const edges = files.flatMap((file) => importsOf(file))
const local = edges.filter((e) => e.local)

/** Why an edge breaks the picture, or undefined when it is allowed. */
function violation(edge: ImportEdge): string | undefined {
  const {from, to} = edge
  if (from.startsWith('src/contract/')) {
    if (edge.local && !to.startsWith('src/contract/')) return 'the contract imports nothing of the CLI or the sandbox'
    if (!edge.local && !to.startsWith('node:')) return 'the contract imports no package (Node built-ins only)'
  }
  if (from.startsWith('src/sandbox/') && edge.local && !to.startsWith('src/sandbox/') && !to.startsWith('src/contract/')) {
    return 'the sandbox imports only itself and the contract'
  }
  if (from.startsWith('src/lib/') || from === 'src/main.ts' || from === 'src/help.ts') {
    if (to.startsWith('src/commands/')) return 'lib never imports a command'
    if (to.startsWith('src/sandbox/')) {
      // The CLI reaches the sandbox only to start it: import() of its entry, or its types.
      const entry = to === 'src/sandbox/index.ts'
      if (!entry || !(edge.kind === 'dynamic' || edge.typeOnly)) return 'the CLI reaches the sandbox only through import() of src/sandbox/index.ts'
    }
  }
  if (from.startsWith('src/commands/') && to.startsWith('src/commands/')) return 'a command never imports another command'
  if (from.startsWith('src/commands/') && to.startsWith('src/sandbox/')) return 'commands reach the sandbox through src/lib/sandbox-admin'
  return undefined
}

/** The folder of a file for the folder-level circle check: src/lib/<domain>, or the file itself. */
function folderOf(file: string): string {
  const parts = file.split('/')
  if (parts[1] === 'lib') return parts.length > 3 ? parts.slice(0, 3).join('/') : file
  return parts.slice(0, 2).join('/')
}

function folderCircles(graph: ImportEdge[]): string[][] {
  const pairs = graph.map((e) => [folderOf(e.from), folderOf(e.to)] as [string, string]).filter(([a, b]) => a !== b && a.startsWith('src/lib'))
  const nodes = [...new Set(pairs.flat())]
  return circles(nodes, pairs)
}

describe('the house: boundaries between rooms', () => {
  it('reads the imports of every source file (the graph is not empty)', () => {
    expect(files.length).toBeGreaterThan(150)
    expect(local.length).toBeGreaterThan(500)
    expect(files.filter((f) => f.startsWith('src/contract/')).length).toBeGreaterThan(4)
  })

  it('no import crosses a boundary the picture forbids', () => {
    const bad = edges.flatMap((e) => {
      const why = violation(e)
      return why ? [`${e.from} → ${e.to}: ${why}`] : []
    })
    expect(bad).toEqual([])
  })

  it('has no import circle between files (type-only imports count)', () => {
    expect(circles(files, local.map((e) => [e.from, e.to]))).toEqual([])
  })

  it('has no circle between the folders of src/lib', () => {
    expect(folderCircles(local)).toEqual([])
  })
})

describe('the checker sees forbidden imports', () => {
  const probe = (file: string, text: string) => importsOf(file, text).map(violation)

  it('the sandbox importing CLI code', () => {
    expect(probe('src/sandbox/payments.ts', "import {t} from '../lib/i18n/index.js'\n")).toEqual([
      'the sandbox imports only itself and the contract',
    ])
  })

  it('the contract importing the CLI, the sandbox or a package', () => {
    expect(probe('src/contract/events.ts', "import {IO} from '../lib/io/terminal.js'\nimport {Store} from '../sandbox/store.js'\nimport chalk from 'chalk'\n")).toEqual([
      'the contract imports nothing of the CLI or the sandbox',
      'the contract imports nothing of the CLI or the sandbox',
      'the contract imports no package (Node built-ins only)',
    ])
  })

  it('a command importing another command, and lib importing a command', () => {
    expect(probe('src/commands/pay/list.ts', "import Status from './status.js'\n")).toEqual(['a command never imports another command'])
    expect(probe('src/lib/payments/flows.ts', "import Status from '../../commands/pay/status.js'\n")).toEqual(['lib never imports a command'])
  })

  it('the CLI importing sandbox internals statically (import() of the entry is allowed)', () => {
    expect(probe('src/lib/sandbox-admin/serve.ts', "import {Store} from '../../sandbox/store.js'\n")).toEqual([
      'the CLI reaches the sandbox only through import() of src/sandbox/index.ts',
    ])
    expect(probe('src/lib/sandbox-admin/serve.ts', "const m = await import('../../sandbox/index.js')\n")).toEqual([undefined])
  })

  it('a circle, by file and by folder', () => {
    const a = importsOf('src/lib/webhooks/format.ts', "import type {X} from './listener.js'\n")
    const b = importsOf('src/lib/webhooks/listener.ts', "import {f} from './format.js'\n")
    expect(circles(['src/lib/webhooks/format.ts', 'src/lib/webhooks/listener.ts'], [...a, ...b].map((e) => [e.from, e.to]))).toHaveLength(1)
    const c = importsOf('src/lib/config/store.ts', "import {createContext} from '../context.js'\n")
    const d = importsOf('src/lib/context.ts', "import {readConfig} from './config/store.js'\n")
    expect(folderCircles([...c, ...d])).toHaveLength(1)
  })
})
