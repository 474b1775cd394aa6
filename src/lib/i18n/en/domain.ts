// Messages of the domain section. Keys start with 'domain.'.
export const domain = {
} as const
