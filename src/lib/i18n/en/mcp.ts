// Messages of `svc mcp`: what the server logs on stderr, the tool errors and the one-line
// summaries an assistant quotes to the person. Keys start with 'mcp.'. Tool descriptions and
// input schemas are not here: like --help, they stay English (src/lib/mcp/tools.ts says why).
export const mcp = {
  'mcp.log.started': 'svc mcp: serving {count} tools on stdio with {environment} key {key}.',
  'mcp.log.noKey':
    'svc mcp: serving {count} tools on stdio without an API key: only sandbox_test_numbers will work until you pass --api-key, set SVC_API_KEY or run `svc login`.',
  'mcp.log.readOnly': 'Read-only (--read-only): only the tools that change nothing are offered.',
  'mcp.log.liveRefused': 'LIVE key: tools that move money or tell customers are refused (start with --allow-live-writes to allow them).',
  'mcp.log.liveAllowed': 'LIVE key with --allow-live-writes: tools may move money and message customers, without confirmation.',
  'mcp.log.call': 'tool {name}: {outcome}',
  'mcp.log.stopped': 'svc mcp: the client closed the connection; stopping.',

  'mcp.error.input': 'Invalid argument "{field}" (nothing was sent): {message}',
  'mcp.error.notObject': 'The arguments must be a JSON object.',
  'mcp.error.unknownArgument': 'Unknown argument "{name}"; {tool} takes: {allowed}.',
  'mcp.error.missing': 'Missing argument "{name}".',
  'mcp.error.string': 'Invalid argument "{name}": give a string.',
  'mcp.error.boolean': 'Invalid argument "{name}": give true or false.',
  'mcp.error.integer': 'Invalid argument "{name}": give a whole number.',
  'mcp.error.xaf': 'Invalid argument "{name}": give whole XAF as a number (5000) or as text ("5 000").',
  'mcp.error.array': 'Invalid argument "{name}": give a list.',
  'mcp.error.item': 'Invalid argument "{name}": item {index} must be an object {shape}.',
  'mcp.error.choice': 'Invalid argument "{name}" "{value}": use one of {allowed}.',
  'mcp.error.unknownTool': 'Unknown tool "{name}".',
  'mcp.error.readOnly': 'Tool "{name}" is not offered: this server was started with --read-only.',
  'mcp.error.liveRefused':
    'Refused: this would {action} with a LIVE key ({key}), and this MCP server was started without --allow-live-writes. Nothing was sent.',

  'mcp.hint.outcomeUnknown': 'Do not call payments_create again (that would prompt the customer again): in a minute, look for {amount} to {phone} with payments_list.',

  'mcp.summary.paymentCreated':
    'Payment {id} created: {amount} requested from {phone} ({operator}); PENDING until the customer approves on their phone. Follow it with payments_wait.',
  'mcp.summary.paymentRecovered':
    'The answer to the payment request was lost; found payment {id} ({status}, {amount} from {phone}) in the list, created just now. It was not created again.',
  'mcp.summary.payment': 'Payment {id}: {status}, {amount} from {phone}.',
  'mcp.summary.paymentSucceeded': 'Payment {id} succeeded: {amount} collected from {phone}.',
  'mcp.summary.paymentFailed': 'Payment {id} FAILED ({code}): {amount} from {phone} was not collected.',
  'mcp.summary.paymentStillPending': 'Payment {id} is still {status} after waiting {waited}; call payments_wait again to keep waiting.',
  'mcp.summary.payments': '{count} {count|payment|payments}.',
  'mcp.summary.paymentsMore': '{count} {count|payment|payments}; more exist: call again with offset {next}.',
  'mcp.summary.invoiceCreated': 'Invoice {id} created ({status}) for {customer}, total {total}, Idempotency-Key {key}: invisible to the customer until published.',
  'mcp.summary.invoiceCreatedPublished': 'Invoice {id} created and published ({status}) for {customer}, total {total}, Idempotency-Key {key}: payable at {url}',
  'mcp.summary.invoiceReplayed':
    'Invoice {id} already existed for Idempotency-Key {key} ({status}, {customer}, total {total}): nothing new was created.',
  'mcp.summary.invoicePublishFailed': 'Invoice {id} was created (DRAFT, Idempotency-Key {key}) but publishing it failed: {message} Publish it with invoices_publish.',
  'mcp.summary.invoice': 'Invoice {id}: {status}, {customer}, total {total}, {due} due by {dueDate}.',
  'mcp.summary.invoicePublished': 'Invoice {id} published ({status}): payable at {url}',
  'mcp.summary.invoicePublishedDelivered': 'Invoice {id} published ({status}) and delivered by {channel}: payable at {url}',
  'mcp.summary.invoiceSent': 'Invoice {id} sent by {channel} to {recipient}.',
  'mcp.summary.invoiceCancelled': 'Invoice {id} is CANCELLED.',
  'mcp.summary.invoices': '{count} {count|invoice|invoices}.',
  'mcp.summary.invoicesMore': '{count} {count|invoice|invoices}; more exist: call again with page {next}.',
  'mcp.summary.pdf': 'The PDF of invoice {id} ({bytes} bytes) is attached; its link works until {expires}.',
  'mcp.summary.receivables': 'Receivables as of {asOf}: {count} open {count|invoice|invoices}, {due} still due, {overdue} of it past due.',
  'mcp.summary.collections': 'Payments from {since} to {until}: {count}, {collected} collected, success rate {rate}.',
  'mcp.summary.noRate': 'none final yet',
  'mcp.summary.testNumbers': '{count} sandbox test numbers, each with the outcome it always gives (with its own operator).',
  // mcp: JSON-RPC under bad input
  'mcp.log.tooLarge': 'svc mcp: refused a message of more than {max} bytes ({bytes} bytes read); answered with an error, the session goes on.',
  'mcp.log.draining': 'svc mcp: the client closed its input; waiting for {count} {count|call|calls} in flight to answer.',
  'mcp.log.drainTimedOut': 'svc mcp: {count} {count|call|calls} still unanswered after {seconds} s; stopping without their answers.',
}
