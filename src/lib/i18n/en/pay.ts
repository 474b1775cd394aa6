// Messages of the pay section. Keys start with 'pay.'.
export const pay = {
} as const
