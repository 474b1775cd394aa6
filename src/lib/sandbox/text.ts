/**
 * The sandbox's sentences. The API speaks English whatever language the process that started the
 * sandbox runs in (a `message` is read by clients of every language, like the CLI's --json);
 * customer-facing surfaces (checkout, PDF, outbox) pass their locale explicitly.
 */
import {t as translate, type Locale, type MessageKey, type Params} from '../i18n/index.js'

export function t(key: MessageKey, params?: Params, locale: Locale = 'en'): string {
  return translate(key, params, locale)
}
