// Messages of the api section. Keys start with 'api.'.
export const api = {
} as const
