/**
 * The lib room (`src/lib/`): the CLI's domains, one folder each (api, config, io, payments,
 * invoices, files, reports, webhooks, raw, login, walkthrough, time, i18n; `sandbox-admin/` is the CLI
 * side of `svc sandbox …`). It may import itself and the contract (`src/contract/`); the sandbox
 * only by `import()` of src/sandbox/index.ts; never a command. No import circles, file by file or
 * folder by folder (test/structure/boundaries.test.ts). Library code throws and returns; it never
 * sets `process.exitCode` or writes to process streams: `ctx.io` does the writing, this file ends
 * the run.
 *
 * The one base command (sf-plugins-core's SfCommand): global flags, the per-invocation context, and
 * the one exit path: every error from a command, whatever threw it, arrives in `catch()`, which
 * stops a spinner still on screen, prints through `ctx.io` (the `{"error": …}` envelope on stdout
 * with --json), and sets the exit code of README.md, "Exit codes". A `Failure` (errors.ts) carries only its exit
 * code: its outcome was already shown. Commands stay thin: flags in, one call into src/lib, render
 * out (`ctx.io.result(data, human)` chooses between --json and people).
 */
import {Command, Flags, type Config, type Interfaces} from '@oclif/core'

import {createContext, type Context, type ContextOptions} from './context.js'
import {ExitCode, Failure, SvcError} from './errors.js'
import {canonicalOptionValues} from './option-case.js'
import {bindLanguage, inLanguage, registerCatalogue, setInputLocale, setLocale, t} from './i18n/index.js'
import {resolveLocale} from './i18n/locale.js'
import {quoteInput} from './io/quote.js'
import {ProcessStreams} from './io/process-streams.js'
import {IO} from './io/terminal.js'

export type SvcFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof SvcCommand)['baseFlags'] & T['flags']>
export type SvcArgs<T extends typeof Command> = Interfaces.InferredArgs<T['args']>

const GLOBAL = 'GLOBAL'

/**
 * What a run may be given instead of the process's own: its streams, environment, clock, language
 * and what carries its API clients' requests (the in-process test runner, an embedding program).
 * Unset: the process's.
 */
export type CommandContextOptions = Pick<ContextOptions, 'env' | 'streams' | 'clock' | 'locale' | 'dispatcher' | 'argv'>

export abstract class SvcCommand<T extends typeof Command> extends Command {
  static override baseFlags = {
    profile: Flags.string({description: 'Profile to use (default: the current profile).', helpGroup: GLOBAL}),
    'api-key': Flags.string({description: 'API key (overrides SVC_API_KEY and the profile).', helpGroup: GLOBAL}),
    'base-url': Flags.string({description: 'Service base URL (overrides SVC_BASE_URL and the profile).', helpGroup: GLOBAL}),
    json: Flags.boolean({description: 'Print machine-readable JSON on stdout.', helpGroup: GLOBAL}),
    jq: Flags.string({description: 'Filter the JSON output with a jq expression (implies --json; strings print raw).', helpGroup: GLOBAL}),
    color: Flags.boolean({description: 'Colour output (--no-color, or NO_COLOR, turns it off).', allowNo: true, helpGroup: GLOBAL}),
    yes: Flags.boolean({char: 'y', description: 'Answer yes to confirmations (required for LIVE keys when not interactive).', helpGroup: GLOBAL}),
    verbose: Flags.boolean({description: 'Trace HTTP requests and responses on stderr (key redacted).', helpGroup: GLOBAL}),
    lang: Flags.option({options: ['en', 'fr'] as const, description: 'Language of messages (also SVC_LANG, LANG).', helpGroup: GLOBAL})(),
    wide: Flags.boolean({description: 'Show every table column in full (tables otherwise fit the terminal).', helpGroup: GLOBAL}),
  }

  protected flags!: SvcFlags<T>
  protected args!: SvcArgs<T>
  protected ctx!: Context
  /** The run's streams, environment, clock and language, when not the process's. */
  public contextOptions: CommandContextOptions = {}

  /** The exit code of this run (README.md, "Exit codes"), once it has ended: 0 unless `catch()` set another. */
  public exitCode = 0

  /**
   * Run the command with `argv` as oclif's `run` does, with this context instead of the process's;
   * resolves to the run's exit code (also set on process.exitCode, as for oclif's runs).
   */
  public static async runWith(this: new (argv: string[], config: Config) => SvcCommand<typeof Command>, argv: string[], config: Config, options: CommandContextOptions): Promise<number> {
    const command = new this(argv, config)
    command.id ??= (this as unknown as {id?: string}).id
    // The command line as a person would have typed it (the command's words, then its argv), for
    // the retry hints: not the process's, which is whatever ran this.
    const words = (command.id ?? '').split(/[: ]/).filter(Boolean)
    command.contextOptions = {argv: [...words, ...argv], ...options}
    await command._run()
    return command.exitCode
  }

  /** The whole run (init, run, catch, finally) in a language of its own: see src/lib/i18n/index.ts. */
  protected override async _run<R>(): Promise<R> {
    return inLanguage(() => super._run<R>())
  }

  public override async init(): Promise<void> {
    await super.init()
    this.argv = canonicalOptionValues(this.argv, {...(super.ctor as typeof SvcCommand).baseFlags, ...this.ctor.flags}, this.ctor.args)
    const {args, flags} = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof SvcCommand).baseFlags,
      args: this.ctor.args,
      strict: this.ctor.strict,
    })
    this.flags = flags as SvcFlags<T>
    this.args = args as SvcArgs<T>
    this.ctx = createContext({
      flags: {
        profile: this.flags.profile,
        apiKey: this.flags['api-key'],
        baseUrl: this.flags['base-url'],
        json: this.flags.json || this.flags.jq !== undefined,
        color: this.flags.color,
        yes: this.flags.yes,
        verbose: this.flags.verbose,
        lang: this.flags.lang,
        wide: this.flags.wide,
      },
      version: this.config.version,
      ...this.contextOptions,
    })
    // --json is machine output: byte for byte the same whatever the locale, error messages included
    // (so it speaks English). Otherwise French only when asked for: an English run never loads (or
    // parses) the French catalogue.
    setInputLocale(this.ctx.locale)
    if (this.ctx.io.json) setLocale('en')
    else if (this.ctx.locale === 'fr') registerCatalogue('fr', (await import('./i18n/fr/index.js')).fr)
    // `on`, not `once`: signal-exit (pulled in by dependencies) re-raises the signal when it finds
    // itself the only listener left, which would kill the process before our clean-up ran.
    // Bound to the run's language: the process emits signals from outside any run.
    process.on('SIGINT', bindLanguage(() => void this.interrupted('SIGINT')))
    // SIGTERM (a service manager, `timeout`, `kill`): the same clean stop, exit 143 (README.md, "Exit codes").
    process.on('SIGTERM', bindLanguage(() => void this.interrupted('SIGTERM')))
    // jq (WebAssembly: on this thread for a short slice, then in a worker thread) only when asked
    // for; the expression is compiled before anything is sent. A filter that fails while the
    // command still streams ends it (jqFailed).
    if (this.flags.jq !== undefined) {
      const {loadJq} = await import('./io/jq.js')
      this.ctx.io.jq = await loadJq(this.flags.jq, this.ctx.io.isTerminal('stdout'), this.ctx.env, this.ctx.clock)
      this.ctx.io.onJqFailure = (error) => void this.jqFailed(error)
    }
  }

  private finishing = false
  private interrupting = false

  /** --jq's output is written once the filter answers: the command ends once it is, with the filter's failure if it failed. */
  public override async finally(error: Error | undefined): Promise<unknown> {
    this.finishing = true
    const jqError = await this.ctx?.io.jqSettled()
    if (jqError) await this.catch(jqError)
    return super.finally(error)
  }

  /** The filter failed while the command runs on (a stream): say so and end, as at its end. */
  private async jqFailed(error: Error): Promise<void> {
    if (this.finishing || this.interrupting) return
    this.interrupting = true
    await this.catch(error)
    process.exit()
  }

  /**
   * Ctrl-C: run the command's clean-up (e.g. listen reports what is pending), then exit 130 (143 on
   * SIGTERM), or the exit code it returns (`sandbox exec`: its command's).
   */
  protected async onInterrupt(_signal: 'SIGINT' | 'SIGTERM'): Promise<number | void> {}

  /** Another signal while the clean-up of the first runs: ignored unless the command passes it on. */
  protected onInterruptAgain(_signal: 'SIGINT' | 'SIGTERM'): void {}

  private async interrupted(signal: 'SIGINT' | 'SIGTERM'): Promise<void> {
    if (this.interrupting) {
      this.onInterruptAgain(signal)
      return
    }
    this.interrupting = true
    const {io} = this.ctx
    io.stopSpinner()
    // Whatever had the terminal in raw mode (a prompt) is not coming back to restore it.
    io.restoreTerminal()
    // One message on a signal: the command's own (what is pending, how to resume), else "Interrupted.".
    const before = io.stderrWrites
    let code: number | void = undefined
    try {
      code = await this.onInterrupt(signal)
    } finally {
      // What the person needs to carry on (e.g. the payment id and `svc pay watch ID`).
      const note = io.interruptNote()
      if (note) io.note(`\n${note}`)
      if (io.stderrWrites === before) io.note(`\n${t(signal === 'SIGTERM' ? 'core.error.terminated' : 'core.error.interrupted')}`)
      process.exit(typeof code === 'number' ? code : signal === 'SIGTERM' ? ExitCode.TERMINATED : ExitCode.INTERRUPTED)
    }
  }

  /**
   * "Could not connect" to the address of a profile `svc sandbox serve` saved, with no sandbox
   * running there: say that the local sandbox is not running and how to start it (still exit 7).
   */
  private async explainStoppedSandbox<E extends Error>(error: E): Promise<E | SvcError> {
    if (!this.ctx || !(error instanceof SvcError) || error.code !== 'not_connected') return error
    try {
      const {stoppedSandboxError} = await import('./sandbox-admin/running.js')
      return stoppedSandboxError(this.ctx) ?? error
    } catch {
      return error
    }
  }

  /**
   * For oclif's "Nonexistent flag" (no context yet: the flags did not parse), the message in the
   * person's language with the nearest flag of this command: `--limt` → "Did you mean --limit?".
   */
  private async flagSuggestion(error: Error): Promise<string | undefined> {
    const typed = (error as {flags?: unknown}).flags
    // By shape: the bundle leaves oclif's error classes without their names.
    if (!/^Nonexistent flags?:/.test(error.message) || !Array.isArray(typed) || typed.length === 0) return undefined
    if (!this.ctx) {
      const lang = this.argv.find((a, i) => this.argv[i - 1] === '--lang') ?? this.argv.find((a) => a.startsWith('--lang='))?.slice(7)
      const locale = this.argv.includes('--json') ? 'en' : (this.contextOptions.locale ?? resolveLocale(lang, this.contextOptions.env ?? process.env))
      if (locale === 'fr') registerCatalogue('fr', (await import('./i18n/fr/index.js')).fr)
      setLocale(locale)
    }
    const {closest} = await import('./io/did-you-mean.js')
    const ctor = this.constructor as {flags?: Record<string, {hidden?: boolean}>; baseFlags?: Record<string, {hidden?: boolean}>}
    const own = {...ctor.baseFlags, ...ctor.flags}
    const names = Object.entries(own).filter(([, f]) => !f.hidden).map(([name]) => `--${name}`)
    const command = `svc ${this.id?.split(':').join(' ') ?? ''}`.trim()
    return typed
      .map((flag) => {
        const name = String(flag).split('=')[0]!
        const suggestion = closest(name, names)
        return suggestion ? t('core.flag.suggest', {flag: quoteInput(name), suggestion}) : t('core.flag.unknown', {flag: quoteInput(name), command})
      })
      .join('\n')
  }

  /** Never let a secret through, whatever produced the message (this run's secrets; none known before its context). */
  private redact(text: string): string {
    return this.ctx ? this.ctx.redact(text) : text
  }

  public override async catch(caught: Error & {oclif?: {exit?: number}; code?: unknown}): Promise<void> {
    const error = await this.explainStoppedSandbox(caught)
    const exitCode = exitCodeFor(error)
    this.exitCode = exitCode
    process.exitCode = exitCode
    // No context when parsing the flags failed: plain streams, no colour, --json as argv says.
    const io = this.ctx?.io ?? new IO(this.contextOptions.streams ?? new ProcessStreams(), {interactive: false, color: false, json: this.argv.includes('--json')})
    // A spinner left on screen would draw over (or erase) what follows.
    io.stopSpinner()
    // Already shown (e.g. --json printed the final object): only the exit code is left to give.
    if (error instanceof Failure) return
    // With --jq, stdout carries the filter's results only: errors are for the person, on stderr.
    const jq = this.flags?.jq !== undefined || this.argv.some((arg) => arg === '--jq' || arg.startsWith('--jq='))
    const svcError = error instanceof SvcError ? error : undefined
    // A mistyped flag: the nearest flag of this command, as a mistyped command gets its nearest command.
    const flagTypo = await this.flagSuggestion(error)
    if (flagTypo) error.message = flagTypo
    if (io.json && !jq) {
      const body = svcError?.toJSON() ?? {status: null, code: codeFor(error, exitCode), message: this.redact(rawMessageOf(error))}
      io.out(this.redact(JSON.stringify({error: body}, null, 2)))
      return
    }
    if (exitCode === ExitCode.INTERRUPTED) {
      io.err(t('core.error.interrupted'))
      return
    }
    const paint = io.paintSync()
    // The label carries its own punctuation: 'Error:' but 'Erreur :'.
    const label = t('core.error.prefix')
    let text = `${paint.red(label)} ${this.redact(rawMessageOf(error))}`
    // A key the restarted local sandbox no longer knows: say that, rather than "check the key".
    const restarted = svcError?.status === 401 && this.ctx ? (await import('./sandbox-admin/restarted-hint.js')).restartedSandboxHint(this.ctx, svcError) : undefined
    const hint = restarted ?? svcError?.hint
    if (hint) text += `\n${t('core.error.hint')} ${hint}`
    io.err(text)
  }
}

/** Inquirer's Ctrl-C at a prompt, and aborts, mean the user interrupted. */
function isInterrupt(error: Error): boolean {
  return error.name === 'ExitPromptError' || error.name === 'AbortPromptError'
}

export function exitCodeFor(error: Error & {oclif?: {exit?: number}}): number {
  if (error instanceof SvcError) return error.exitCode
  if (isInterrupt(error)) return ExitCode.INTERRUPTED
  const oclifExit = error.oclif?.exit
  if (typeof oclifExit === 'number') return oclifExit
  return ExitCode.FAILURE
}

function codeFor(error: Error, exitCode: number): string {
  if (exitCode === ExitCode.USAGE) return 'invalid_input'
  if (exitCode === ExitCode.INTERRUPTED) return 'interrupted'
  return error.name === 'Error' ? 'unexpected_error' : error.name
}

function rawMessageOf(error: Error): string {
  if (error instanceof SvcError) return error.message
  if (isInterrupt(error)) return t('core.error.interrupted')
  // The single executable runs its native modules from the files it unpacked (scripts/binary/).
  if ((error as {code?: unknown}).code === 'ERR_DLOPEN_FAILED' && process.getBuiltinModule('node:sea').isSea()) {
    return t('core.error.binaryNativeModule', {message: error.message})
  }
  // oclif's parse errors already read well ("Expected --amount=… to be …").
  if ((error as {oclif?: unknown}).oclif) return error.message
  return t('core.error.unexpected', {message: error.message})
}
