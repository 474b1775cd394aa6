/**
 * Prompts, only when interactive; when not, a missing value is an error that names the flag to
 * pass (Shopify's failMissingNonTTYFlags). Prompts draw on stderr so stdout stays data only.
 */
import {InputError} from '../errors.js'
import {t} from '../i18n/index.js'
import type {IO} from './terminal.js'

export interface Prompter {
  input(message: string, options?: {default?: string; validate?: (value: string) => true | string}): Promise<string>
  password(message: string, options?: {validate?: (value: string) => true | string}): Promise<string>
  confirm(message: string, options?: {default?: boolean}): Promise<boolean>
  select<T extends string>(message: string, choices: {value: T; name?: string}[]): Promise<T>
}

/** Thrown when a value is missing and we may not prompt for it. */
/**
 * A parser's refusal in the terms of the question that was asked: the parsers' messages name the
 * flag (`Invalid --amount "abc"`), which the person answering a prompt never typed, so the flag
 * becomes `subject`, what was asked for ("Invalid amount "abc"", « Montant « abc » invalide »).
 */
export function inQuestionTerms(error: InputError, subject: string): string {
  const field = error.field ?? ''
  const text = field === '' ? error.message : error.message.split(`--${field}`).join(subject)
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export function missingValue(what: string, flag: string): InputError {
  return new InputError(t('core.error.missingFlag', {what, flag}), {field: flag.replace(/^-+/, '')})
}

/** A typed yes/no answer in the current language (English words are always understood too). */
export function readAnswer(value: string): 'yes' | 'no' | 'empty' | 'invalid' {
  const word = value.trim().toLowerCase()
  if (word === '') return 'empty'
  if (t('core.confirm.yesWords').split(' ').includes(word)) return 'yes'
  if (t('core.confirm.noWords').split(' ').includes(word)) return 'no'
  return 'invalid'
}

export function createPrompter(io: IO): Prompter {
  const context = () => ({output: io.streams.stderr as NodeJS.WritableStream, input: io.streams.stdin as NodeJS.ReadableStream})
  return {
    async input(message, options = {}) {
      const {input} = await import('@inquirer/prompts')
      return input({message, default: options.default, validate: options.validate}, context())
    },
    async password(message, options = {}) {
      const {password} = await import('@inquirer/prompts')
      return password({message, mask: true, validate: options.validate}, context())
    },
    async confirm(message, options = {}) {
      // Inquirer's confirm knows only y/yes and n/no: a French user typing « o » (oui) would be
      // read as the default (No). The words come from the catalogue instead.
      const {input} = await import('@inquirer/prompts')
      const fallback = options.default ?? false
      const answer = await input(
        {
          message: `${message} ${t(fallback ? 'core.confirm.hintYes' : 'core.confirm.hint')}`,
          validate: (value) => (readAnswer(value) !== 'invalid' ? true : t('core.confirm.invalid')),
        },
        context(),
      )
      const read = readAnswer(answer)
      return read === 'empty' ? fallback : read === 'yes'
    },
    async select(message, choices) {
      const {select} = await import('@inquirer/prompts')
      // Inquirer's key hints are English ("↑↓ navigate • ⏎ select"): the user's language instead.
      const actions: Record<string, string> = {navigate: t('core.prompt.keyNavigate'), select: t('core.prompt.keySelect')}
      const keysHelpTip = (keys: [string, string][]) => keys.map(([key, action]) => `${key} ${actions[action] ?? action}`).join(' • ')
      return select({message, choices: choices.map((c) => ({value: c.value, name: c.name ?? c.value})), theme: {style: {keysHelpTip}}}, context())
    },
  }
}
