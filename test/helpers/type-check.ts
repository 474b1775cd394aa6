/**
 * The TypeScript compiler in the test's own process (its API: the checks `tsc` makes, without a
 * Node start-up and a load of typescript.js per check). The files read from disk (the lib files,
 * @types/node, src/) are parsed once per worker and shared between the programs of the tests that
 * run in it (vitest's fast project shares modules between files), keyed by what their parse and
 * binding depend on; files given in memory (a probe) are parsed fresh each time.
 */
import {dirname, relative} from 'node:path'

import ts from 'typescript'

const parsed = new Map<string, ts.SourceFile>()

/** The options TypeScript itself keys a shared parsed file by (its language service's document registry), besides its text. */
const AFFECTING = ['target', 'module', 'jsx', 'importHelpers', 'alwaysStrict', 'noFallthroughCasesInSwitch', 'moduleResolution', 'jsxImportSource', 'allowUnusedLabels', 'allowUnreachableCode', 'moduleDetection']

/**
 * What a parsed file depends on besides its text: the language version and module format it was
 * parsed for, and for a file that is not a declaration the options above. A declaration file (no
 * statements, a module by its own syntax alone under every `moduleDetection`) is the same under
 * all of them, so the Node programs and the page script's share their lib files.
 */
function cacheKey(fileName: string, language: ts.ScriptTarget | ts.CreateSourceFileOptions, options: ts.CompilerOptions): string {
  const {languageVersion, impliedNodeFormat} = typeof language === 'object' ? language : {languageVersion: language, impliedNodeFormat: undefined}
  const settings = fileName.endsWith('.d.ts') ? '' : JSON.stringify(AFFECTING.map((name) => options[name]))
  return `${fileName}\0${languageVersion}\0${impliedNodeFormat}\0${settings}`
}

/** A compiler host over `options` that reads `memory` (absolute path → text) before the disk, and parses each disk file once. */
function hostFor(options: ts.CompilerOptions, memory: Record<string, string>): ts.CompilerHost {
  const host = ts.createCompilerHost(options)
  const {getSourceFile, fileExists, readFile} = host
  host.getSourceFile = (name, language, onError, fresh) => {
    if (name in memory) return ts.createSourceFile(name, memory[name]!, language)
    const key = cacheKey(name, language, options)
    let source = fresh ? undefined : parsed.get(key)
    if (!source) {
      source = getSourceFile.call(host, name, language, onError, fresh)
      if (source) parsed.set(key, source)
    }
    return source
  }
  host.fileExists = (name) => name in memory || fileExists.call(host, name)
  host.readFile = (name) => (name in memory ? memory[name] : readFile.call(host, name))
  return host
}

/** The program of `roots` under `options`, with `memory`'s files (absolute path → text) as if on disk. */
export function createProgram(roots: readonly string[], options: ts.CompilerOptions, memory: Record<string, string> = {}): ts.Program {
  return ts.createProgram(roots, options, hostFor(options, memory))
}

/** A tsconfig.json's root files and options, as `tsc -p` reads them (its errors thrown). */
export function readTsconfig(path: string): ts.ParsedCommandLine {
  const read = ts.readConfigFile(path, ts.sys.readFile)
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'))
  const config = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(path), undefined, path)
  if (config.errors.length > 0) throw new Error(ts.formatDiagnostics(config.errors, formatHost(dirname(path))))
  return config
}

/** How `tsc` names files in its messages: relative to the directory it runs in. */
export function formatHost(cwd: string): ts.FormatDiagnosticsHost {
  return {getCanonicalFileName: (name) => name, getCurrentDirectory: () => cwd, getNewLine: () => '\n'}
}

export interface TypeError {
  /** Relative to `root`; '' for an error of no file. */
  file: string
  /** 0-based; -1 for an error of no file. */
  line: number
  message: string
}

/** The program's errors before emit (what `tsc --noEmit` reports), of `only` when given, each with its file relative to `root`. */
export function typeErrors(program: ts.Program, root: string, only?: ts.SourceFile): TypeError[] {
  return ts.getPreEmitDiagnostics(program, only).map((d) => ({
    file: d.file ? relative(root, d.file.fileName) : '',
    line: d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line : -1,
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }))
}
