/**
 * No such command (exit 127, README.md "Exit codes"): the closest command as a suggestion, on a terminal or not,
 * and under `--json` the error envelope on stdout, as every other error. It replaces
 * @oclif/plugin-not-found, which suggested only on a terminal (by asking whether to run the
 * guess: a question we would rather not ask in front of `pay create`) and printed no JSON.
 * Runs before any command, so it reads --lang / SVC_LANG / LANG itself.
 */
import type {Hook} from '@oclif/core'

import {inLanguage, registerCatalogue, setLocale, t} from '../lib/i18n/index.js'
import {resolveLocale} from '../lib/i18n/locale.js'
import {closest} from '../lib/io/did-you-mean.js'
import {quoteInput} from '../lib/io/quote.js'

/** The command id closest to what was typed, when close enough to be a typo. */
export function closestCommand(typed: string, ids: string[]): string | undefined {
  return closest(typed, ids)
}

function flagValue(argv: string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === name) return argv[i + 1]
    if (argv[i]!.startsWith(`${name}=`)) return argv[i]!.slice(name.length + 1)
  }
  return undefined
}

const hook: Hook<'command_not_found'> = function (options) {
  return inLanguage(() => answer(options))
}

/** The answer, in a language of its own (a run's, as a command's). */
async function answer(options: Parameters<Hook<'command_not_found'>>[0]): Promise<boolean> {
  const argv = process.argv.slice(2)
  const json = argv.includes('--json') || argv.some((a) => a === '--jq' || a.startsWith('--jq='))
  const hidden = new Set(options.config.commands.filter((c) => c.hidden).map((c) => c.id))
  const ids = options.config.commandIDs.filter((id) => !hidden.has(id))
  const typed = options.id.split(':').join(' ')
  const suggestion = closestCommand(options.id, ids)?.split(':').join(' ')
  const locale = json ? 'en' : resolveLocale(flagValue(argv, '--lang'), process.env)
  if (locale === 'fr') registerCatalogue('fr', (await import('../lib/i18n/fr/index.js')).fr)
  setLocale(locale)
  const command = quoteInput(typed)
  const message = suggestion ? t('core.notFound.suggest', {command, suggestion}) : t('core.notFound.none', {command})
  if (json) {
    const error: Record<string, unknown> = {status: null, code: 'command_not_found', message}
    if (suggestion) error.suggestion = suggestion
    process.stdout.write(`${JSON.stringify({error}, null, 2)}\n`)
  } else {
    process.stderr.write(`${t('core.error.prefix')} ${message}\n${t('core.notFound.hint')}\n`)
  }
  process.exitCode = 127
  return true
}

export default hook
