/**
 * The import graph of src/, read with TypeScript's own parser: every static import and export
 * `from`, and every `import()` with a literal specifier, each marked type-only or not. Used by the
 * boundary and no-circles tests (boundaries.test.ts).
 */
import {readdirSync, readFileSync, statSync} from 'node:fs'
import {dirname, join, relative, resolve} from 'node:path'
import ts from 'typescript'

export interface ImportEdge {
  from: string
  /** Repository-relative path of the imported file, or the package name. */
  to: string
  kind: 'static' | 'dynamic'
  typeOnly: boolean
  local: boolean
}

export const root = resolve(import.meta.dirname, '../..')

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}

export function sourceFiles(): string[] {
  return walk(join(root, 'src'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => relative(root, f).split('\\').join('/'))
}

function resolveLocal(fromFile: string, specifier: string): string {
  const target = resolve(root, dirname(fromFile), specifier)
  return relative(root, target.replace(/\.js$/, '.ts')).split('\\').join('/')
}

export function importsOf(file: string, text = readFileSync(join(root, file), 'utf8')): ImportEdge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const edges: ImportEdge[] = []
  const add = (specifier: string, kind: ImportEdge['kind'], typeOnly: boolean) => {
    const local = specifier.startsWith('.')
    edges.push({from: file, to: local ? resolveLocal(file, specifier) : specifier, kind, typeOnly, local})
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause
      const typeOnly =
        Boolean(clause?.isTypeOnly) ||
        Boolean(
          clause &&
            !clause.name &&
            clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly),
        )
      add(node.moduleSpecifier.text, 'static', typeOnly)
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, 'static', node.isTypeOnly)
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      add(node.arguments[0].text, 'dynamic', false)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, 'static', true)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return edges
}

/** Strongly connected components of more than one node (or a node importing itself): the circles. */
export function circles(nodes: string[], edges: Array<[string, string]>): string[][] {
  const next = new Map<string, string[]>(nodes.map((n) => [n, []]))
  for (const [a, b] of edges) if (next.has(a) && next.has(b)) next.get(a)!.push(b)
  let index = 0
  const indices = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const connect = (v: string): void => {
    indices.set(v, index)
    low.set(v, index)
    index++
    stack.push(v)
    onStack.add(v)
    for (const w of next.get(v)!) {
      if (!indices.has(w)) {
        connect(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, indices.get(w)!))
      }
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1 || next.get(v)!.includes(v)) found.push(component.sort())
    }
  }
  for (const v of nodes) if (!indices.has(v)) connect(v)
  return found
}
