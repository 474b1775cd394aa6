/**
 * The TypeScript compiler in the test's own process (its API: the checks `tsc` makes, without a
 * Node start-up and a load of typescript.js per check). The declaration files read from disk (the
 * lib files, @types/node) can be parsed once per worker and shared between the programs of the
 * tests that run in it (vitest's fast project shares modules between files), keyed by what their
 * parse depends on; files given in memory (a probe) and a program's own sources are parsed for it.
 */
import {dirname, relative} from 'node:path'

import ts from 'typescript'

const parsed = new Map<string, ts.SourceFile>()

/**
 * What a parsed declaration file depends on besides its text: the language version and module
 * format it was parsed for. A declaration file has no statements and is a module by its own syntax
 * alone (under every `moduleDetection`), so no other option changes how it parses and binds; only
 * declaration files are shared (a program's own sources are parsed for it).
 */
function cacheKey(fileName: string, language: ts.ScriptTarget | ts.CreateSourceFileOptions): string {
  const {languageVersion, impliedNodeFormat} = typeof language === 'object' ? language : {languageVersion: language, impliedNodeFormat: undefined}
  return `${fileName}\0${languageVersion}\0${impliedNodeFormat}`
}

/**
 * A compiler host over `options` that reads `memory` (absolute path → text) before the disk; with
 * `share`, each declaration file of the disk is parsed once per worker.
 */
function hostFor(options: ts.CompilerOptions, memory: Record<string, string>, share: boolean): ts.CompilerHost {
  const host = ts.createCompilerHost(options)
  const {getSourceFile, fileExists, readFile} = host
  host.getSourceFile = (name, language, onError, fresh) => {
    if (name in memory) return ts.createSourceFile(name, memory[name]!, language)
    if (!share || !name.endsWith('.d.ts')) return getSourceFile.call(host, name, language, onError, fresh)
    const key = cacheKey(name, language)
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

/**
 * The program of `roots` under `options`, with `memory`'s files (absolute path → text) as if on
 * disk. `share`: its declaration files (the lib files, @types/node) parsed once per worker for all
 * the programs that share them (the Node programs of the contract checks; the page script's DOM
 * program has none to share and keeps nothing).
 */
export function createProgram(roots: readonly string[], options: ts.CompilerOptions, memory: Record<string, string> = {}, share = false): ts.Program {
  return ts.createProgram(roots, options, hostFor(options, memory, share))
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
