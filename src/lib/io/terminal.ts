/**
 * Terminal IO, decided in one place (gh's IOStreams): whether we may prompt, colour or spin, and
 * the streams everything writes to. stdout carries data only; messages go to stderr.
 */
import {Failure, type SvcError} from '../errors.js'
import {t} from '../i18n/index.js'
import type {JqFilter} from './jq.js'
import {ProcessStreams, type StreamsLike} from './process-streams.js'
import {plainTable, type Column, type TableFit} from './table.js'
import {wrapProse} from './wrap.js'
import {escapeForTerminal} from './terminal-text.js'

export type {StreamsLike} from './process-streams.js'

/** Interactive = stdin and stdout are TTYs and `CI` is not set at all (even empty counts). */
export function isInteractive(env: NodeJS.ProcessEnv, streams: StreamsLike): boolean {
  return !('CI' in env) && isTerminal(streams, 'stdin') && isTerminal(streams, 'stdout')
}

/** Whether one of the streams is a terminal (the process's own are asked without being created). */
export function isTerminal(streams: StreamsLike, name: keyof StreamsLike): boolean {
  return streams instanceof ProcessStreams ? streams.isTerminal(name) : Boolean(streams[name].isTTY)
}

/**
 * The width tables fit into (docs/conventions.md, "Tables"): none with --wide; `COLUMNS` when set (piped too,
 * for whoever asks for it); the terminal's on a TTY; none when piped (scripts get every value).
 */
export function tableWidth(wide: boolean | undefined, env: NodeJS.ProcessEnv, streams: StreamsLike): number | undefined {
  if (wide) return undefined
  const fromEnv = Number(env.COLUMNS)
  if (env.COLUMNS && Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv
  if (!isTerminal(streams, 'stdout')) return undefined
  const columns = (streams.stdout as {columns?: number}).columns
  return columns && columns > 0 ? columns : 80
}

/** Colour only when interactive, not `--no-color`, and `NO_COLOR` unset or empty. */
export function colorEnabled(flag: boolean | undefined, env: NodeJS.ProcessEnv, interactive: boolean): boolean {
  if (flag === false) return false
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  return interactive
}

export interface Painter {
  bold(text: string): string
  dim(text: string): string
  red(text: string): string
  green(text: string): string
  yellow(text: string): string
  cyan(text: string): string
}

const plain: Painter = {
  bold: (s) => s,
  dim: (s) => s,
  red: (s) => s,
  green: (s) => s,
  yellow: (s) => s,
  cyan: (s) => s,
}

export interface Spinner {
  update(text: string): void
  stop(finalText?: string): void
}

export class IO {
  readonly interactive: boolean
  readonly color: boolean
  readonly json: boolean
  private painter?: Painter

  constructor(
    readonly streams: StreamsLike,
    options: {interactive: boolean; color: boolean; json: boolean; tableWidth?: number},
  ) {
    this.interactive = options.interactive
    this.color = options.color
    this.json = options.json
    this.tableWidth = options.tableWidth
  }

  /** The width tables fit into (tableWidth()), or undefined: every value in full. */
  readonly tableWidth: number | undefined

  /** Width for charts: the one tables fit (COLUMNS when set), the terminal's, or 80 when not a TTY. */
  get columns(): number {
    if (this.tableWidth !== undefined) return this.tableWidth
    if (this.streams instanceof ProcessStreams && !this.streams.isTerminal('stdout')) return 80
    const columns = (this.streams.stdout as {columns?: number}).columns
    return columns && columns > 0 ? columns : 80
  }

  /** A line of data on stdout: for a person, escaped for the terminal; under --json, as is. */
  out(text: string): void {
    const safe = this.json ? text : this.forTerminal(text)
    this.write('stdout', safe.endsWith('\n') ? safe : `${safe}\n`)
  }

  /** A machine format other than JSON (CSV) on stdout: data, byte for byte, like --json. */
  outData(text: string): void {
    this.write('stdout', text.endsWith('\n') ? text : `${text}\n`)
  }

  /** A piece of a document on stdout, as is: no newline added (a document written as it is made). */
  outPiece(text: string): void {
    this.write('stdout', text)
  }

  /** The one escaping step of human output (io/terminal-text.ts): our colours stay, nothing else. */
  forTerminal(text: string): string {
    return escapeForTerminal(text, {keepOwnColours: this.color})
  }

  /** `--jq`: what outJson and outJsonLine print goes through this filter (io/jq.ts). */
  jq?: JqFilter
  /** Called once when the filter fails (a limit, a jq error), e.g. to end a command still streaming. */
  onJqFailure?: (error: Error) => void
  // The filter runs in a worker: each document's results are written in order, and none after a failure.
  private jqQueue: Promise<void> = Promise.resolve()
  private jqError?: Error

  /** One JSON document on stdout (through --jq's filter when given). */
  outJson(value: unknown): void {
    if (this.jq) this.filtered(JSON.stringify(value))
    else this.write('stdout', `${JSON.stringify(value, null, 2)}\n`)
  }

  /** One JSON document on a line of its own (streams of events), through --jq's filter when given. */
  outJsonLine(value: unknown): void {
    if (this.jq) this.filtered(JSON.stringify(value))
    else this.write('stdout', `${JSON.stringify(value)}\n`)
  }

  private filtered(json: string): void {
    const jq = this.jq!
    this.jqQueue = this.jqQueue.then(async () => {
      if (this.jqError) return
      try {
        this.write('stdout', await jq.apply(json))
      } catch (error) {
        this.jqError = error as Error
        this.onJqFailure?.(this.jqError)
      }
    })
  }

  /** Once every document given to --jq's filter is written: the filter's failure, if it failed. */
  async jqSettled(): Promise<Error | undefined> {
    await this.jqQueue
    return this.jqError
  }

  /**
   * What a command gives back: with --json, `data` as one JSON document on stdout; otherwise what
   * `human` prints. The one place that chooses between the two, so that commands do not.
   */
  async result(data: unknown, human: () => void | Promise<void>): Promise<void> {
    if (this.json) this.outJson(data)
    else await human()
  }

  /**
   * The error to end with once `result()` has shown a failed outcome: with --json the document
   * says what failed, so only the exit code is left to give (a silent Failure); otherwise `error`,
   * whose message the base command prints.
   */
  afterResult(error: SvcError): SvcError {
    return this.json ? Failure.after(error) : error
  }

  /** A status message for the person on stderr; none with --json, where the JSON document is the answer. */
  note(text: string): void {
    if (!this.json) this.err(text)
  }

  /** A message for the person on stderr: on a terminal, wrapped at word boundaries to its width. */
  err(text: string): void {
    const safe = this.forTerminal(text)
    const columns = this.isTerminal('stderr') ? (this.streams.stderr as {columns?: number}).columns : undefined
    const wrapped = columns && columns > 0 ? wrapProse(safe, columns) : safe
    this.write('stderr', wrapped.endsWith('\n') ? wrapped : `${wrapped}\n`)
  }

  /** Prose on stdout (a report's sentences): on a terminal, wrapped at word boundaries to its width. */
  prose(text: string): string {
    return this.isTerminal('stdout') ? wrapProse(text, this.columns) : text
  }

  /** Whether stdout (or another of the streams) is a terminal. */
  isTerminal(name: keyof StreamsLike): boolean {
    return isTerminal(this.streams, name)
  }

  /** How many times stderr was written to (so that a signal's clean-up knows whether it said something). */
  stderrWrites = 0

  private write(name: 'stdout' | 'stderr', text: string): void {
    if (name === 'stderr') this.stderrWrites++
    if (this.streams instanceof ProcessStreams) this.streams.write(name, text)
    else this.streams[name].write(text)
  }

  warn(message: string): void {
    const label = t('core.warning.prefix')
    this.err(`${this.paintSync().yellow(label)} ${message}`)
  }

  /** Colours, loaded on first use (chalk stays off the start-up path). */
  async paint(): Promise<Painter> {
    if (this.painter) return this.painter
    if (!this.color) {
      this.painter = plain
      return plain
    }
    const {Chalk} = await import('chalk')
    const chalk = new Chalk({level: 1})
    this.painter = {
      bold: (s) => chalk.bold(s),
      dim: (s) => chalk.dim(s),
      red: (s) => chalk.red(s),
      green: (s) => chalk.green(s),
      yellow: (s) => chalk.yellow(s),
      cyan: (s) => chalk.cyan(s),
    }
    return this.painter
  }

  /** The painter if already loaded, else plain text (for synchronous error paths). */
  paintSync(): Painter {
    return this.painter ?? plain
  }

  /**
   * A table: aligned columns, no borders, the header bold in colour; fitted to tableWidth by the
   * columns' kinds and priorities (io/table.ts). Cells are escaped first, so that what is
   * measured is what the terminal shows.
   */
  async table(head: string[], rows: string[][], columns?: Column[]): Promise<string> {
    return (await this.fittedTable(head, rows, columns)).text
  }

  /**
   * The table, and which columns it shows (a legend under it explains only those). When fitting
   * left columns out, a line under it names them and `--wide`; when it shortened ids, a line says
   * the commands take them as shown.
   */
  async fittedTable(head: string[], rows: string[][], columns?: Column[]): Promise<{text: string; shown: (column: number) => boolean}> {
    const paint = await this.paint()
    const safe = (cells: string[]) => cells.map((cell) => this.forTerminal(String(cell ?? '')))
    let fit: TableFit = {dropped: [], shortened: []}
    const table = plainTable(safe(head), rows.map(safe), {columns, width: this.tableWidth, paintHead: this.color ? paint.bold : undefined, onFit: (f) => (fit = f)})
    const notes: string[] = []
    if (fit.dropped.length > 0) notes.push(t('core.fit.notShown', {columns: fit.dropped.map((c) => head[c]).join(', ')}))
    if (fit.shortened.length > 0) notes.push(t('core.fit.shortened'))
    const footer = notes.map((note) => `\n${paint.dim(this.forTerminal(wrapProse(note, this.tableWidth ?? this.columns)))}`).join('')
    return {text: table + footer, shown: (column) => !fit.dropped.includes(column)}
  }

  private note_?: string

  /** What to tell the person if a signal stops the command now (e.g. how to resume a watch). */
  setInterruptNote(text: string | undefined): void {
    this.note_ = text
  }

  interruptNote(): string | undefined {
    return this.note_
  }

  /** Cooked mode again, cursor shown: a prompt or spinner stopped by a signal cannot do it. */
  restoreTerminal(): void {
    // A stdin never created was never put in raw mode.
    const stdin = this.streams instanceof ProcessStreams && !this.streams.has('stdin') ? undefined : (this.streams.stdin as NodeJS.ReadStream)
    if (stdin?.isTTY && stdin.isRaw) stdin.setRawMode?.(false)
    if (this.interactive && this.isTerminal('stderr')) this.write('stderr', '\u001b[?25h')
  }

  /** The spinner now on screen, so that an error or a signal can clear it before printing. */
  private activeSpinner: Spinner | undefined

  /** A spinner on stderr when interactive; silent otherwise (and always with --json). */
  async spinner(text: string): Promise<Spinner> {
    if (!this.interactive || this.json) return {update() {}, stop() {}}
    const {default: ora} = await import('ora')
    // ora hides the cursor and, by default, takes stdin (discardStdin) which stops Ctrl-C reaching
    // the process on some terminals: leave stdin alone.
    const spinner = ora({text: this.forTerminal(text), stream: this.streams.stderr as NodeJS.WriteStream, color: this.color ? 'cyan' : false, discardStdin: false}).start()
    const handle: Spinner = {
      update: (next) => {
        spinner.text = this.forTerminal(next)
      },
      stop: (finalText) => {
        if (this.activeSpinner === handle) this.activeSpinner = undefined
        if (finalText) spinner.stopAndPersist({symbol: '', text: this.forTerminal(finalText)})
        else spinner.stop()
      },
    }
    this.activeSpinner = handle
    return handle
  }

  /** Runs `work` with a spinner showing `text`, and stops the spinner however `work` ends. */
  async withSpinner<T>(text: string, work: (spinner: Spinner) => Promise<T>): Promise<T> {
    const spinner = await this.spinner(text)
    try {
      return await work(spinner)
    } finally {
      spinner.stop()
    }
  }

  /** A passing state a person should see: in the spinner when one runs, else a line on stderr. */
  status(text: string): void {
    if (this.activeSpinner) this.activeSpinner.update(text)
    else this.err(text)
  }

  /** Clears a spinner still on screen (the base command calls this before it prints an error). */
  stopSpinner(): void {
    this.activeSpinner?.stop()
  }
}
