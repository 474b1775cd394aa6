/**
 * The invoice PDF's fonts: DejaVu Sans (regular and bold), vendored in src/sandbox/invoices/fonts
 * (licence beside them) and copied to dist/sandbox/fonts by the build, so that names in Greek,
 * Cyrillic, Latin Extended, typographic quotes and many symbols print as written, where the PDF's
 * built-in Helvetica only has Latin-1. Read once per process (the document worker's); when the
 * files are missing (a repackaged install), the renderer falls back to Helvetica.
 */
import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'

export interface PdfFonts {
  regular: Buffer
  bold: Buffer
}

let loaded: PdfFonts | null | undefined

/** The fonts' directory: beside this file in the sources, dist/sandbox/fonts in a build. */
function fontsDir(): string | undefined {
  // The build defines import.meta.dirname as __dirname (scripts/build.mjs): its output is CommonJS.
  // import.meta first: in a worker started from the sources, a global __dirname is the eval's ".".
  const here = typeof import.meta.dirname === 'string' ? import.meta.dirname : typeof __dirname === 'string' ? __dirname : '.'
  for (const dir of [join(here, 'fonts'), join(here, 'sandbox/fonts'), join(here, '../sandbox/fonts')]) {
    if (existsSync(join(dir, 'DejaVuSans.ttf'))) return dir
  }
  return undefined
}

export function pdfFonts(): PdfFonts | undefined {
  if (loaded !== undefined) return loaded ?? undefined
  try {
    const dir = fontsDir()
    loaded = dir ? {regular: readFileSync(join(dir, 'DejaVuSans.ttf')), bold: readFileSync(join(dir, 'DejaVuSans-Bold.ttf'))} : null
  } catch {
    loaded = null
  }
  return loaded ?? undefined
}
