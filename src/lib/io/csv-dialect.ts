/**
 * `--csv-sep , | ; | tab`: the dialect of the CSV a list or a report writes. Without it, the
 * language's: in French `;` with a UTF-8 BOM (what French Excel and LibreOffice open as columns,
 * accents intact), otherwise RFC 4180's `,` without a BOM.
 */
import {InputError} from '../errors.js'
import {getLocale, t} from '../i18n/index.js'
import {RFC4180, type CsvDialect} from './csv-writer.js'

const SEPARATORS: Record<string, CsvDialect['sep']> = {',': ',', comma: ',', ';': ';', semicolon: ';', tab: '\t', '\t': '\t', '\\t': '\t'}

export function csvDialect(raw: string | undefined): CsvDialect {
  const french = getLocale() === 'fr'
  if (raw === undefined) return french ? {sep: ';', bom: true} : RFC4180
  const sep = SEPARATORS[raw.trim().toLowerCase()] ?? (raw === '\t' ? '\t' : undefined)
  if (!sep) throw new InputError(t('core.error.invalidFlag', {flag: '--csv-sep', reason: t('core.csv.sep', {value: raw})}), {field: 'csv-sep'})
  return {sep, bom: french}
}
