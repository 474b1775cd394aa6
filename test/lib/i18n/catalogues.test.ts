/**
 * The French catalogue against the English one, section by section: the same keys (none missing,
 * none extra), the same placeholders, no raw key or empty text, and no sentence left in English.
 */
import {describe, expect, it} from 'vitest'

import {en, sections as enSections} from '../../../src/lib/i18n/en/index.js'
import {fr, sections as frSections} from '../../../src/lib/i18n/fr/index.js'
import {registerCatalogue, t} from '../../../src/lib/i18n/index.js'
import * as sandboxCatalogue from '../../../src/sandbox/i18n/index.js'

/**
 * Texts legitimately identical in both languages: codes, units, symbols, command lines and
 * templates made only of placeholders.
 */
const SAME_IN_BOTH = new Set<string>([
  'pay.table.id',
  'pay.table.transaction',
  'invoice.table.id',
  // A candidate invoice: its id, customer and reference, nothing to translate.
  'invoice.prefix.candidate',
  'fixtures.head.id',
  'invoice.table.total',
  'invoice.field.id',
  'invoice.field.total',
  'invoice.field.pdf',
  'invoice.field.notes',
  'local.col.sku',
  'local.col.id',
  'local.col.url',
  'local.col.secret',
  'local.col.cidr',
  'local.col.logo',
  'local.col.mode',
  'local.list.pid',
  'local.numbers.national',
  'walk.col.ok',
  'walk.next.pay',
  'walk.next.listen',
  'api.trace.request',
  'webhooks.listen.forwarded',
  'webhooks.duration.ms',
  'webhooks.duration.s',
  'webhooks.duration.min',
  'webhooks.duration.h',
  'webhooks.events.col.type',
  'report.chart.figure',
  'report.rate',
  'report.none',
  'report.table.total',
  'report.table.date',
  'sandboxInvoices.pdf.total',
  // The request journal and the web inspector: codes, and the fixed marker of serve's login line.
  'local.serve.inspector',
  'inspector.col.id',
  'inspector.col.type',
  'inspector.col.url',
  'inspector.invoice.pdf',
])

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

const sandboxFr = Object.assign({}, ...Object.values(sandboxCatalogue.frSections)) as Record<string, string>

// The CLI's catalogue and the local sandbox's own (src/sandbox/i18n/): the same checks for both.
const catalogues = [
  {room: 'CLI', en, fr, enSections, frSections, unitKey: 'domain.xaf.unit'},
  {
    room: 'sandbox',
    en: sandboxCatalogue.en as unknown as typeof en,
    fr: sandboxFr as unknown as typeof fr,
    enSections: sandboxCatalogue.sections as unknown as typeof enSections,
    frSections: sandboxCatalogue.frSections as unknown as typeof frSections,
    unitKey: 'sandbox.xaf.unit',
  },
]

for (const {room, en, fr, enSections, frSections, unitKey} of catalogues) {
  describe(`French catalogue of the ${room}`, () => {
    it('has every English section, and no other', () => {
      expect(Object.keys(frSections).sort()).toEqual(Object.keys(enSections).sort())
    })

    for (const [name, enSection] of Object.entries(enSections)) {
      it(`section ${name}: the same keys as English, none missing, none extra`, () => {
        const frSection = (frSections as Record<string, Record<string, string>>)[name]
        expect(frSection, `fr/${name}`).toBeDefined()
        expect(Object.keys(frSection).sort()).toEqual(Object.keys(enSection).sort())
      })
    }

    it('the assembled catalogues have the same keys', () => {
      expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort())
    })

    it('keeps every placeholder exactly (same names, same count)', () => {
      const mismatches: string[] = []
      for (const key of Object.keys(en) as (keyof typeof en)[]) {
        const want = placeholders(en[key])
        const got = placeholders(fr[key])
        if (JSON.stringify(want) !== JSON.stringify(got)) mismatches.push(`${key}: en {${want.join(',')}} fr {${got.join(',')}}`)
      }
      expect(mismatches).toEqual([])
    })

    it('translates every sentence: no French text equals the English one outside the allowlist', () => {
      const same = (Object.keys(en) as (keyof typeof en)[]).filter((key) => fr[key] === en[key] && !SAME_IN_BOTH.has(key))
      expect(same).toEqual([])
    })

    it('the allowlist names only keys that exist and really are identical', () => {
      for (const key of [...SAME_IN_BOTH].filter((k) => k.split('.')[0] in enSections)) {
        expect(key in en, key).toBe(true)
        expect(fr[key as keyof typeof en], key).toBe(en[key as keyof typeof en])
      }
    })

    it('has no empty text and no raw key as a text', () => {
      for (const [key, text] of Object.entries(fr)) {
        expect(text.trim(), key).not.toBe('')
        expect(text, key).not.toBe(key)
        expect(text, key).not.toMatch(/^[a-z]+(\.[\w]+)+$/)
      }
    })

    it('uses the French unit and keeps line breaks where English has them', () => {
      expect(fr[unitKey as keyof typeof en]).toBe('FCFA')
      for (const key of Object.keys(en) as (keyof typeof en)[]) {
        expect(fr[key].split('\n').length, key).toBe(en[key].split('\n').length)
      }
    })
  })
}

describe('French catalogue of the CLI, registered', () => {
  it('t() answers in French once the catalogue is registered, and in English otherwise', () => {
    registerCatalogue('fr', fr)
    expect(t('core.profile.used', {name: 'boutique'}, 'fr')).toBe('Profil « boutique » désormais utilisé.')
    expect(t('core.profile.used', {name: 'shop'}, 'en')).toBe('Now using profile "shop".')
    expect(t('pay.table.status', undefined, 'fr')).toBe('STATUT')
  })
})
