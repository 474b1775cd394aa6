// Messages of the sandbox section. Keys start with 'sandbox.'.
export const sandbox = {
} as const
