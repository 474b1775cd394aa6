// The webhooks room: sign and verify (signature), listen and forward (listener = receiver +
// delivery queue, forwarder), the
// local event log and replay, the poll source, and the flag parsing of `svc webhooks …`.
export * from '../../contract/signature.js'
export * from '../../contract/events.js'
export * from './routes.js'
export * from './forwarder.js'
export * from './receiver.js'
export * from './delivery-queue.js'
export * from './listener.js'
export * from './event-log.js'
export * from './replay.js'
export * from './poll-source.js'
export * from './verify-input.js'
export * from './format.js'
