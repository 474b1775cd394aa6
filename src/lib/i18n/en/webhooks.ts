// Messages of the webhooks section. Keys start with 'webhooks.'.
export const webhooks = {
  // Flags of `svc webhooks listen` (routes.ts) and `svc webhooks verify` (verify-input.ts).
  'webhooks.route.badUrl': 'Invalid {flag} "{value}": give an http:// or https:// address, e.g. http://localhost:3000/webhooks.',
  'webhooks.route.unknownType': 'Unknown event type "{type}" in {flag}: use {types}.',
  'webhooks.route.duplicateType': '{flag} gives a URL for {type} twice: give one URL per event type.',
  'webhooks.route.twoDefaults': '{flag} gives two default URLs: give one, and TYPE=URL for the other types.',
  'webhooks.route.none': 'Nowhere to forward events: pass {flag} URL (or {flag} TYPE=URL).',
  'webhooks.header.malformed': 'Malformed {flag} "{value}": write it as "Name: value".',
  'webhooks.header.reserved': '{flag} cannot set {name}: the listener sets it itself when it signs each event.',
  'webhooks.header.duplicate': '{flag} gives {name} twice: give each header once.',

  // Why a delivery does not verify (verify-input.ts and the listener's 401s).
  'webhooks.verify.ok': 'Signature valid: webhook-id {id}, timestamp {timestamp} ({age}).',
  'webhooks.verify.secretMalformed': 'The secret is malformed: a signing secret is whsec_ followed by base64 (check {flag}).',
  'webhooks.verify.headerMissing': 'Header {header} is missing: pass it with {flag} "{header}: …".',
  'webhooks.verify.timestampInvalid': 'Header webhook-timestamp is not a Unix time in seconds: "{value}".',
  'webhooks.verify.timestampTooOld':
    'The timestamp is {distance} in the past, beyond the {tolerance} tolerance: a stale or replayed delivery (or this clock is ahead).',
  'webhooks.verify.timestampTooNew':
    "The timestamp is {distance} in the future, beyond the {tolerance} tolerance: check the sender's clock.",
  'webhooks.verify.signatureMalformed':
    'Header webhook-signature holds no v1 signature: expected "v1,<base64>" (space-separated when several).',
  'webhooks.verify.signatureMismatch':
    'Signature mismatch: the payload was not signed with this secret, or it changed after signing (whitespace counts).',
  'webhooks.verify.trailingNewline':
    'It does verify without the trailing newline: the file ends with a newline the sender did not sign.',
  'webhooks.verify.payloadUnreadable': 'Cannot read {flag} "{path}": {reason}',
  'webhooks.verify.inPast': 'in the past',
  'webhooks.verify.inFuture': 'in the future',
  'webhooks.verify.now': 'just now',
  'webhooks.verify.ago': '{distance} ago',
  'webhooks.verify.ahead': '{distance} ahead',

  // The listener's lines (format.ts) and its answers to the sender.
  'webhooks.listen.forwarded': '{time}  {type}  {id}  [{status}]  {latency} ms',
  'webhooks.listen.retrying': '{time}  {type}  {id}  [{status}]  {latency} ms, attempt {attempt}: trying again in {retryIn}',
  'webhooks.listen.unreachable': '{time}  {type}  {id}  your app is unreachable ({error}), attempt {attempt}: trying again in {retryIn}',
  'webhooks.listen.duplicate': '{time}  {type}  {id}  duplicate delivery: acknowledged, not forwarded again',
  'webhooks.listen.filtered': '{time}  {type}  {id}  skipped: not in --events',
  'webhooks.listen.noRoute': '{time}  {type}  {id}  skipped: no --forward-to for this type',
  'webhooks.listen.rejected': '{time}  refused a delivery (401): {message}',
  'webhooks.listen.badBody': 'Not an event: the body is not a JSON object with an "id" and a "type".',
  'webhooks.listen.tooLarge': 'The body is larger than {limit} bytes.',
  'webhooks.listen.methodNotAllowed': 'POST events to this address.',
  'webhooks.listen.pending': '{count} {count|event|events} not yet delivered to your app: {ids}',
  'webhooks.listen.nonePending': 'Nothing pending: every event reached your app.',
  'webhooks.listen.resumed': 'Resuming {count} {count|event|events} not delivered before the last stop.',
  'webhooks.listen.ready': 'Ready: receiving events at {url}',
  'webhooks.listen.source.sandbox':
    'Events: the local sandbox at {base} delivers its {environment} events here, each line marked with its environment (endpoint {id}, removed when you stop; --env narrows).',
  'webhooks.listen.and': ' and ',
  'webhooks.listen.envNotLocal':
    'Invalid --env {env}: only a local sandbox forwards both environments; these credentials follow their own environment ({environment}). Leave out --env, or use a key of that environment.',
  'webhooks.listen.source.inbound':
    'Events: inbound deliveries, verified with the endpoint signing secret of {scope}; point your tunnel at port {port}.',
  'webhooks.listen.source.poll': 'Events: following the payments list of {base} every {interval}; each settlement becomes an event.',
  'webhooks.listen.forwardingTo': 'Forwarding to {url}',
  'webhooks.listen.forwardingType': 'Forwarding {type} to {url}',
  'webhooks.listen.eventsOnly': 'Only these events: {events}',
  'webhooks.listen.extraHeaders': 'With extra headers: {names}',
  'webhooks.listen.secret': 'Local signing secret (your app verifies with it; --print-secret prints it alone): {secret}',
  'webhooks.listen.stopHint': 'Press Ctrl-C to stop.',
  'webhooks.listen.inboundNoSecret':
    'No endpoint signing secret for inbound deliveries ({scope}): give it once with --endpoint-secret-stdin, e.g. printf %s "$SECRET" | svc webhooks listen --endpoint-secret-stdin.',
  'webhooks.listen.endpointSecretEmpty': 'Nothing on standard input: --endpoint-secret-stdin reads the endpoint signing secret (whsec_…) from it.',
  'webhooks.listen.endpointSecretMalformed':
    'The endpoint signing secret on standard input is malformed: a signing secret is whsec_ followed by base64.',
  'webhooks.listen.endpointSecretSaved': 'Endpoint signing secret {secret} saved for {scope}: inbound deliveries are verified with it.',

  // Replay and the event log.
  'webhooks.replay.notFound': 'No event {id} in the local event log ({path}): events are logged while `svc webhooks listen` runs.',
  'webhooks.replay.noRoute': 'No --forward-to takes events of type {type}.',
  'webhooks.replay.noRoutes':
    'Nowhere to send it: pass --forward-to URL (replay otherwise reuses the routes `svc webhooks listen` last used for this profile).',
  'webhooks.replay.sent': '{time}  {type}  {id}  [{status}]  {latency} ms  replayed to {url}',
  'webhooks.replay.unreachable': '{time}  {type}  {id}  your app is unreachable at {url} ({error})',
  'webhooks.replay.failed': 'Your app did not accept {id} at {url} ({reason}); run the replay again once it does.',

  // `svc webhooks trigger`.
  'webhooks.trigger.liveRefused':
    'webhooks trigger makes a real payment: it runs on sandbox keys (svc_sk_test_…) only, and {key} is a LIVE key.',
  'webhooks.trigger.noTestNumber': 'No {operator} test number settles {outcome}.',
  'webhooks.trigger.sending': 'Creating a sandbox payment with the test number {phone} ({operator}) for a {type} event…',
  'webhooks.trigger.waiting': 'Waiting for payment {id} to settle…',
  'webhooks.trigger.created':
    'Payment {id} ({amount}) created with the test number {phone} ({operator}, always {outcome}): its {type} event follows when it settles, in a few seconds.',
  'webhooks.trigger.settled': 'Payment {id} settled {status}: its {type} event is on its way.',
  'webhooks.trigger.listenHint': 'Receive it locally with: svc webhooks listen --forward-to http://localhost:3000/webhooks',

  // The poll source.
  'webhooks.poll.failed': 'Could not read the payments list ({message}); trying again in {interval}.',
  'webhooks.poll.stateUnreadable': 'The poll state file {path} is not valid ({reason}): remove it to start afresh.',

  'webhooks.replay.oneOf': 'Give either an EVENT_ID or --all-failed: one event, or every event your app never accepted.',
  'webhooks.replay.noneFailed': 'No failed events for {scope}: your app accepted every event it was sent (svc webhooks events lists them).',
  'webhooks.replay.allDelivered': 'Your app accepted {count} of {count} replayed {count|event|events}.',
  'webhooks.replay.someRefused': '{count} of {total} replayed {total|event|events} not accepted by your app; run the replay again once it does (svc webhooks events --status failed lists them).',
  'webhooks.replay.asWebhookId': ', as webhook-id {webhookId}',

  // `svc webhooks events`: the local event log.
  'webhooks.events.col.received': 'RECEIVED',
  'webhooks.events.col.id': 'EVENT',
  'webhooks.events.col.type': 'TYPE',
  'webhooks.events.col.status': 'STATUS',
  'webhooks.events.col.attempts': 'ATTEMPTS',
  'webhooks.events.col.answer': 'LAST ANSWER',
  'webhooks.events.status.delivered': 'delivered',
  'webhooks.events.status.pending': 'pending',
  'webhooks.events.status.failed': 'failed',
  'webhooks.events.status.skipped': 'skipped',
  'webhooks.events.none': 'No events logged for {scope} yet: `svc webhooks listen` logs every event it receives.',
  'webhooks.events.noneWithStatus': 'No {status} events logged for {scope}.',
  'webhooks.events.badStatus': 'Invalid --status "{value}": use {statuses}.',
  'webhooks.events.badLimit': 'Invalid --limit {value}: give a whole number from 1 to 10000.',

  // Durations: "7 min 12 s".
  'webhooks.duration.ms': '{n} ms',
  'webhooks.duration.s': '{n} s',
  'webhooks.duration.min': '{n} min',
  'webhooks.duration.h': '{n} h',
  'webhooks.duration.d': '{n} {n|day|days}',
  // listen across sandbox restarts (sandbox-watch.ts)
  'webhooks.listen.sandboxLost': '{time}  The sandbox went away: {reason}. Waiting for the sandbox at {url} (only that one, and only once it accepts this profile’s key); the events it creates meanwhile will be forwarded once it answers again.',
  'webhooks.listen.lostReason.unreachable': 'it cannot be reached',
  'webhooks.listen.lostReason.unregistered': 'it no longer has this listener registered (a reset or a restore)',
  'webhooks.listen.sandboxBack': '{time}  The sandbox at {url} is back: registered again as endpoint {id}; {count} {count|event|events} it created since the last one received forwarded (disconnected {from}–{to}).',
  'webhooks.listen.sandboxBackUncovered': '{time}  The sandbox at {url} is back: registered again as endpoint {id}, but its event list could not be read ({reason}): events between {from} and {to} may not have reached your app.',
  'webhooks.listen.nonePendingReceived': 'Nothing pending: every event the listener received reached your app.',
  'webhooks.listen.gapCovered': 'Disconnected from the sandbox at {url} {from}–{to}: {count} {count|event|events} it created meanwhile forwarded when it was back.',
  'webhooks.listen.gapUncovered': 'Disconnected from the sandbox at {url} {from}–{to}: its event list could not be read, so events of that window may not have reached your app.',
  'webhooks.listen.endpointsLeft': 'Could not remove the endpoints this listener registered ({ids}) from the sandbox at {url}: it cannot be reached. Once it runs again, `svc sandbox webhooks remove ID` removes them.',
  'webhooks.listen.gapOpen': 'Disconnected from the sandbox at {url} since {since}: events since then have not reached your app. Run listen again once that sandbox is back.',
  // One convention for lists: the hint that there are more.
  'webhooks.events.more': 'More events: these are the newest {limit}; use a larger --limit (at most 10000).',
} as const
