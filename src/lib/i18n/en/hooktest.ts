// Messages of `svc webhooks test` (src/lib/webhooks/grade/). Keys start with 'hooktest.'.
export const hooktest = {
  // What each case sends (the table's reading, the docs, the crash sentence).
  'hooktest.what.valid-success': 'a correctly signed payment.success event',
  'hooktest.what.valid-failed': 'a correctly signed payment.failed event',
  'hooktest.what.raw-body': 'a correctly signed event whose JSON has unusual spacing, key order and an escaped character',
  'hooktest.what.duplicate': 'the same event delivered twice (same webhook-id)',
  'hooktest.what.unknown-type': 'a correctly signed event of a type your handler does not know yet (payment.refunded)',
  'hooktest.what.extra-fields': 'a correctly signed event with fields your handler does not know',
  'hooktest.what.rotation': 'a delivery with two signatures, as during a secret rotation: the first made with another secret, the second valid',
  'hooktest.what.burst': '50 correctly signed events at once',
  'hooktest.what.bad-signature': 'a delivery whose webhook-signature is not its signature',
  'hooktest.what.wrong-secret': 'a delivery signed with another secret',
  'hooktest.what.missing-headers': 'three deliveries, each without one of webhook-id, webhook-timestamp, webhook-signature',
  'hooktest.what.missingOne': 'a delivery without the {header} header',
  'hooktest.what.stale-timestamp': 'a correctly signed delivery whose webhook-timestamp is 10 minutes old',
  'hooktest.what.future-timestamp': 'a correctly signed delivery whose webhook-timestamp is 10 minutes ahead',
  'hooktest.what.tampered-body': 'a delivery whose body was changed after signing (the amount raised)',

  // What the handler does wrong and how to fix it: must-accept cases (it did not answer 2xx)…
  'hooktest.fix.valid-success':
    'Your handler refused a correctly signed payment.success event (HTTP {status}): check that it verifies with the secret this test signs with (--secret, or the local signing secret: svc webhooks listen --print-secret) and answers 2xx once the signature checks out.',
  'hooktest.fix.valid-failed':
    'Your handler refused a correctly signed payment.failed event (HTTP {status}): a failed payment is news to record (the order stays unpaid), not an error; answer 2xx.',
  'hooktest.fix.raw-body':
    'Your handler refused a correctly signed body with unusual spacing (HTTP {status}): it verifies a re-serialised body; verify the raw bytes exactly as received (express.raw(), request.text()) and parse the JSON only afterwards.',
  'hooktest.fix.duplicate':
    'Your handler refused the second delivery of the same event (HTTP {status}): delivery is at least once, so answer 2xx to a webhook-id you have already processed, without acting on it again.',
  'hooktest.fix.unknown-type':
    'Your handler did not accept an event type it does not know (HTTP {status}): answer 2xx and ignore the types you do not handle, or every new type the service adds is retried for days.',
  'hooktest.fix.extra-fields':
    'Your handler did not accept an event with fields it does not know (HTTP {status}): ignore unknown fields (no strict schema on events); the service adds fields without notice.',
  'hooktest.fix.rotation':
    'Your handler refused a delivery carrying two signatures (HTTP {status}): during a secret rotation webhook-signature holds several space-separated "v1,…" signatures; accept when any one of them matches.',
  'hooktest.fix.burst':
    '{count} of {total} simultaneous deliveries were not accepted ({answers}): your handler must take concurrent events (no global lock, a large enough connection pool); answer 2xx quickly and queue the work.',
  // …and must-refuse cases (it answered 2xx).
  'hooktest.fix.bad-signature':
    'Your handler accepted a delivery with an invalid signature (HTTP {status}): it does not check signatures, so anyone can forge a payment.success; verify webhook-signature with your secret and answer 401 when it does not match.',
  'hooktest.fix.wrong-secret':
    "Your handler accepted a delivery signed with another secret (HTTP {status}): verify with your endpoint's own secret and refuse (401) anything signed otherwise.",
  'hooktest.fix.missing-headers':
    'Your handler accepted a delivery without the {header} header (HTTP {status}): treat a missing webhook-id, webhook-timestamp or webhook-signature as a failed verification and answer 400.',
  'hooktest.fix.stale-timestamp':
    'Your handler accepted a delivery signed 10 minutes ago (HTTP {status}): a captured delivery could be replayed at will; refuse timestamps more than 5 minutes away from now (the standardwebhooks libraries do).',
  'hooktest.fix.future-timestamp':
    'Your handler accepted a delivery timestamped 10 minutes ahead (HTTP {status}): refuse timestamps more than 5 minutes away from now, in either direction.',
  'hooktest.fix.tampered-body':
    'Your handler accepted a body changed after signing (HTTP {status}): verify the signature over the exact bytes you then use, and read the event from nowhere else.',

  // The same for any case.
  'hooktest.detail.timeout':
    'No answer within {timeout}: the service waits 15 s, then sends the event again; answer 2xx as soon as the signature checks out and do the slow work afterwards (a queue, a background job).',
  'hooktest.detail.timeoutRefuse': 'No answer within {timeout} to {what}: refuse it at once with 400 or 401, before any other work.',
  'hooktest.detail.unreachable': 'No answer from {url} ({error}): is your app running and listening there?',
  'hooktest.detail.crash':
    'Your handler crashes (HTTP {status}) on {what}: when verification fails, answer 400 or 401 instead of throwing; a 5xx makes the service deliver the forgery again.',
  'hooktest.detail.notRefused': 'Your handler answered HTTP {status} to {what}: refuse it with 400 or 401.',
  'hooktest.detail.slow':
    'Answered in {latency}, over 5 s: close to the 15 s after which the service gives up and sends the event again; answer first, work afterwards.',
  'hooktest.note.duplicate':
    'Both deliveries of {id} were answered 2xx, as they should be. Whether your app acted twice cannot be seen from its answers: check that {id} was processed once (one order marked paid, one receipt sent), deduplicating on webhook-id.',
  'hooktest.note.refusesAll': 'Your handler refuses valid events too, so its refusals prove nothing yet: fix valid-success first.',

  // The report.
  'hooktest.col.case': 'CASE',
  'hooktest.col.expected': 'EXPECTED',
  'hooktest.col.answer': 'ANSWER',
  'hooktest.col.latency': 'LATENCY',
  'hooktest.col.verdict': 'VERDICT',
  'hooktest.expect.accept': 'accept (2xx)',
  'hooktest.expect.refuse': 'refuse (4xx)',
  'hooktest.answer.timeout': 'no answer',
  'hooktest.answer.error': 'unreachable',
  'hooktest.verdict.pass': 'pass',
  'hooktest.verdict.warn': 'slow',
  'hooktest.verdict.fail': 'FAIL',
  'hooktest.line': '{name}: {text}',
  'hooktest.summary': '{passed} of {total} {total|case|cases} passed, {failed} failed.',
  'hooktest.summarySlow': '{passed} of {total} {total|case|cases} passed ({warned} slow), {failed} failed.',

  // Before sending (stderr).
  'hooktest.intro': 'Testing {url}: {count} {count|case|cases} of signed test deliveries (SANDBOX environment, ids evt_test_…), timeout {timeout}.',
  'hooktest.secret.flag': 'Signing with the secret given by --secret ({secret}).',
  'hooktest.secret.local': 'Signing with the local signing secret {secret} ({scope}), the one svc webhooks listen signs with; --secret to use another.',
  'hooktest.sending': 'Sending {name}…',
  'hooktest.remote.confirm': 'Send {count} signed test deliveries to {host}? It is not on this machine.',
  'hooktest.remote.refused': 'svc webhooks test would send test deliveries to {host}, which is not on this machine: pass --yes to send them anyway.',
  'hooktest.remote.declined': 'Nothing sent.',
  'hooktest.remote.notice': 'Sending to {host}, which is not on this machine (--yes).',

  // Flags.
  'hooktest.only.unknown': 'Unknown case "{value}" in --only: use {cases}.',
  'hooktest.only.empty': '--only names no case: use {cases}.',
  'hooktest.secret.malformed': 'The --secret is malformed: a signing secret is whsec_ followed by base64.',
  // webhooks test: a handler that is not running
  'hooktest.notListening': 'Nothing is listening at {url} (connection refused): start your webhook handler there, then run svc webhooks test again.',
} as const
