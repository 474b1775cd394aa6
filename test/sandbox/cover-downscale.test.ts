/**
 * A cover larger than the PDF's box is averaged down once (src/sandbox/invoices/images.ts): an
 * opaque one comes out as an RGB PNG, which pdfkit embeds as it is in every PDF (no alpha channel to
 * split off and compress again each time); one with transparency keeps its alpha channel.
 */
import {PNG} from 'pngjs'
import {describe, expect, it} from 'vitest'

import {COVER_BOX, downscaleCover} from '../../src/sandbox/invoices/images.js'

/** A PNG twice as wide as the box, 4 rows, every pixel with this alpha (odd columns red, even blue). */
function wide(alpha: number): Uint8Array {
  const png = new PNG({width: COVER_BOX.width * 2, height: 4})
  for (let i = 0; i < png.data.length; i += 4) png.data.set((i / 4) % 2 ? [255, 0, 0, alpha] : [0, 0, 255, alpha], i)
  return new Uint8Array(PNG.sync.write(png))
}

describe('a cover downscaled for the PDF', () => {
  it('is RGB when every pixel is opaque: the same pixels, averaged, without an alpha channel', () => {
    const bytes = Buffer.from(downscaleCover(wide(255), 'image/png'))
    // IHDR's colour type: 2 is RGB, 6 RGBA.
    expect(bytes[25]).toBe(2)
    const small = PNG.sync.read(bytes)
    expect([small.width, small.height]).toEqual([COVER_BOX.width, 2])
    // Each output pixel is the mean of a red and a blue one, opaque.
    expect([...small.data.subarray(0, 4)]).toEqual([127, 0, 127, 255])
  })

  it('keeps its alpha channel when a pixel is not opaque', () => {
    const bytes = Buffer.from(downscaleCover(wide(128), 'image/png'))
    expect(bytes[25]).toBe(6)
    expect([...PNG.sync.read(bytes).data.subarray(0, 4)]).toEqual([127, 0, 127, 128])
  })
})
