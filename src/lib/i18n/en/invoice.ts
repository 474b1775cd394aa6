// Messages of the invoice section. Keys start with 'invoice.'.
export const invoice = {
} as const
