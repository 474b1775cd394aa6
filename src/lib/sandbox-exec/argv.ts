/**
 * `svc sandbox exec`'s command line: its own flags before `--`, CMD after it (kept whole, never
 * read as exec's flags), and `--journal-on-failure` with or without a FILE (oclif's flags always
 * take a value: a bare one, followed by another flag or `--`, becomes `--journal-on-failure=-`,
 * stderr). Its stderr lines carry the `svc exec: ` prefix.
 */
import {prefixedStreams} from '../io/prefixed-streams.js'
import {ProcessStreams, type StreamsLike} from '../io/process-streams.js'

export const EXEC_PREFIX = 'svc exec: '

export function execArgv(argv: readonly string[]): {flags: string[]; command: string[]} {
  const dashdash = argv.indexOf('--')
  const own = dashdash === -1 ? [...argv] : argv.slice(0, dashdash)
  const command = dashdash === -1 ? [] : argv.slice(dashdash + 1)
  const flags = own.map((arg, i) => (arg === '--journal-on-failure' && (i + 1 >= own.length || own[i + 1]!.startsWith('-')) ? '--journal-on-failure=-' : arg))
  return {flags: dashdash === -1 ? flags : [...flags, '--', ...command], command}
}

export function execStreams(streams: StreamsLike | undefined): StreamsLike {
  return prefixedStreams(streams ?? new ProcessStreams(), EXEC_PREFIX)
}
