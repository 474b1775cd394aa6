// Messages of the payment commands. Keys start with 'pay.'.
export const pay = {
  'pay.create.dryRun': 'Dry run: checked, nothing sent. Would ask {phone} ({operator}) to pay {amount}.',
  'pay.table.id': 'ID',
  'pay.table.status': 'STATUS',
  'pay.table.amount': 'AMOUNT',
  'pay.table.phone': 'PHONE',
  'pay.table.failure': 'FAILURE CODE',
  'pay.table.created': 'CREATED',
  'pay.table.environment': 'ENVIRONMENT',
  'pay.table.transaction': 'TRANSACTION',
  'pay.prompt.amount': 'Amount in XAF (whole francs)',
  'pay.prompt.phone': "Customer's mobile money number",
  'pay.what.amount': 'the amount',
  'pay.what.phone': 'the phone number',
  'pay.live.action': 'collect {amount} from {phone}',
  'pay.create.sending': 'Asking {phone} ({operator}) to approve {amount}…',
  'pay.create.created': 'Payment {id} created: PENDING until the customer approves on their phone.',
  'pay.create.unknown': 'The payment request was sent but its outcome is unknown ({reason}), and no matching payment was found in the list.',
  'pay.create.unknownHint': 'Do not simply retry (that would prompt the customer again). Check with `svc pay list` for {amount} XAF to {phone} in a minute.',
  'pay.create.recovered': 'The answer to the payment request was lost; found payment {id} in the list (same amount and number, made after this request was sent by the service\'s clock). Not created again.',
  'pay.create.ambiguous':
    'The payment request was sent but its answer was lost ({reason}), and which payment it made cannot be told apart: {count} payments of this amount and number could be it:\n{candidates}',
  'pay.create.maybeEarlier':
    'The payment request was sent but its answer was lost ({reason}), and one payment of this amount and number was made around that moment: the service\'s clock, read to the second, cannot tell whether this request made it or it was made just before (an earlier, identical payment). It is not taken as this one:\n{candidates}',
  'pay.create.candidate': '  {id}  {status}  created {created}',
  'pay.create.ambiguousHint':
    'Do not simply retry (that would prompt the customer again). Check each one, e.g. `svc pay status {id}`, or `svc pay list` for {amount} XAF to {phone}.',
  'pay.create.next': 'Follow it with: svc pay watch {id}',
  'pay.watch.waiting': 'Payment {id}: {status}…',
  'pay.watch.interrupted': 'Stopped watching payment {id}; it goes on without the watch. Resume with: svc pay watch {id}',
  'pay.watch.success': 'Payment {id} succeeded: {amount} collected.',
  'pay.watch.timeout': 'Payment {id} is still {status} after the watch timeout.',
  'pay.watch.timeoutHint': 'Run `svc pay watch {id}` again later, or wait for its webhook event.',
  'pay.list.none': 'No payments.',
  'pay.list.limitRange': 'a whole number from 1 to 100',
  'pay.list.more': 'More payments: use --offset {next} or --all.',
  'pay.list.progress': 'Fetched {count} {count|payment|payments}…',

  // A person's terminal: failure codes in words
  'pay.table.failureMeaning': 'WHAT TO DO',
  'pay.failedExplained': 'Payment {id} failed ({code}): {sentence}',

  // A person's terminal: prompt errors name the question, not a flag
  'pay.subject.amount': 'amount',
  'pay.subject.phone': 'mobile money number',

  // pay watch: a service out of reach
  'pay.watch.unreachable': 'Payment {id}: last read {status}; the service could not be reached since {since}, retrying…',
  'pay.watch.statusUnknown': 'Payment {id}: status unknown: the service could not be reached (since {since}).',
  'pay.watch.statusUnknownHint': 'The payment may have settled meanwhile. Check it once the service answers: svc pay status {id}',
  // The operator shown with a payment (pay create, status, watch).
  'pay.table.operator': 'OPERATOR',
  'pay.operator.inferred': '{operator} (from the number)',
} as const
