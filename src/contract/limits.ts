/**
 * What a request may carry (docs/service.md, "Limits"): the
 * bounds the sandbox enforces and the CLI checks before sending, written once.
 *
 * PURE: no imports.
 */

/** `amount` of a payment, whole XAF. */
export const MIN_AMOUNT = 1
export const MAX_AMOUNT = 1_000_000_000_000
/** Item `price`, whole XAF. */
export const MIN_PRICE = 0
export const MAX_PRICE = 1_000_000_000_000
/** Item `quantity`. */
export const MIN_QUANTITY = 1
export const MAX_QUANTITY = 1_000_000
/** The largest computed invoice total (subtotal), whole XAF. */
export const MAX_TOTAL = 1_000_000_000_000_000

/** Largest JSON body, bytes (an upload's PUT has its own). */
export const MAX_JSON_BODY_BYTES = 1024 * 1024
/** Largest upload (a cover image), bytes. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024
/** Deepest JSON nesting (objects and arrays). */
export const MAX_JSON_DEPTH = 32
/** Largest width and height of an uploaded image, pixels. */
export const MAX_IMAGE_SIDE = 10_000
/**
 * Most pixels (width × height) of an uploaded image: an A4 page at 300 dpi (2480 × 3508, 8.7 Mpx,
 * ~35 MB decoded as RGBA), more than a PDF ever shows; 10 000 × 10 000 would be 400 MB decoded.
 */
export const MAX_IMAGE_PIXELS = 2480 * 3508

/** Longest strings, in code points (characters, as JSON Schema's maxLength counts them: an emoji is one). */
export const MAX_LENGTH = {
  customerName: 200,
  itemName: 200,
  externalReference: 200,
  notes: 2000,
  itemDescription: 1000,
  email: 254,
} as const

/**
 * Unicode Cc other than tab and line breaks (C0 but HT, LF, CR; DEL; C1): refused in any string.
 * A function, not an exported RegExp, so that no caller shares its lastIndex.
 */
export function hasControlCharacter(text: string): boolean {
  return CONTROL.test(text)
}

// Neither global nor sticky: `test` keeps no lastIndex, so the one object serves every call.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/
