// Messages of the webhooks section. Keys start with 'webhooks.'.
export const webhooks = {
} as const
