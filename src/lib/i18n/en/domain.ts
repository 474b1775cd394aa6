// Messages of the domain section: amounts, phone numbers, operators, durations, dates, invoice
// items and drafts. Keys start with 'domain.'. Every refusal names its field ({field} is the flag
// name without dashes, e.g. 'amount') and says what is accepted.
export const domain = {
  // The currency unit printed after amounts (`12 500 XAF`); French may choose 'FCFA'.
  'domain.xaf.unit': 'XAF',
  // Statuses as a person reads them. English shows the service's own values (what --status takes);
  // French translates them (payments are masculine, invoices feminine).
  'domain.status.PENDING': 'PENDING',
  'domain.status.SUCCESS': 'SUCCESS',
  'domain.status.FAILED': 'FAILED',
  'domain.status.UNSPECIFIED': 'UNSPECIFIED',
  'domain.status.DRAFT': 'DRAFT',
  'domain.status.UNPAID': 'UNPAID',
  'domain.status.PAST_DUE': 'PAST_DUE',
  'domain.status.PAID': 'PAID',
  'domain.status.CANCELLED': 'CANCELLED',

  'domain.amount.missing': 'Missing --{field}: give a whole number of XAF of at least {min}, e.g. 5000.',
  'domain.amount.invalid':
    'Invalid --{field} "{input}": give a whole number of XAF as digits, optionally grouped by threes with spaces or commas, e.g. 5000, "5 000" or 5,000.',
  'domain.amount.notWhole':
    'Invalid --{field} "{input}": XAF has no decimals and no exponent; write whole francs as digits, e.g. 5000, "5 000" or 5,000.',
  'domain.amount.grouping':
    'Invalid --{field} "{input}": thousands separators must split the digits into groups of three, e.g. 5,000, "5 000" or 1,234,567 (XAF has no decimals).',
  'domain.amount.belowMin': 'Invalid --{field} "{input}": it must be a whole number of XAF of at least {min}.',
  'domain.amount.tooLarge': 'Invalid --{field} "{input}": it is too large (at most {max}).',

  'domain.phone.missing':
    'Missing --{field}: give a Cameroon number, e.g. 670000001, 237670000001 or +237 6 70 00 00 01.',
  'domain.phone.invalid':
    'Invalid --{field} "{input}": give a Cameroon number of 9 digits starting with 6 or 2, as 670000001, 237670000001, +237 6 70 00 00 01 or 00237670000001 (spaces, dots, dashes and parentheses are allowed).',
  'domain.phone.foreign':
    'Invalid --{field} "{input}": not a Cameroon (+237) number; only Cameroon MTN and ORANGE wallets can pay. Accepted: 670000001, 237670000001, +237 6 70 00 00 01 or 00237670000001.',

  'domain.operator.invalid': 'Invalid --{field} "{input}": use MTN or ORANGE.',
  'domain.operator.unsupportedNetwork':
    'Invalid --{field} {phone}: it is a {network} number (prefix {prefix}); only MTN and ORANGE mobile money can be collected.',
  'domain.operator.unknownPrefix':
    'Cannot tell the operator of --{field} {phone}: prefix {prefix} is not a known MTN or ORANGE prefix. Pass --operator MTN or --operator ORANGE.',
  'domain.operator.warn.contradictsPrefix':
    '{phone} has an {expected} prefix ({prefix}) but --operator is {given}: sending it as {given}, since numbers can move between operators.',
  'domain.operator.warn.testNumberOther':
    '{phone} is an {expected} sandbox test number; with --operator {given} it is an ordinary number and settles randomly (SUCCESS or FAILED) in the sandbox.',
  'domain.operator.warn.unknownPrefix':
    'Prefix {prefix} of {phone} is not a known MTN or ORANGE prefix: sending it as {given}, as given.',

  'domain.duration.missing': 'Missing --{field}: give a duration such as 250ms, 2s, 5m, 1h or 7d.',
  'domain.duration.invalid':
    'Invalid --{field} "{input}": give a duration such as 0, 250ms, 2s, 1.5s, 5m, 1h, 7d or 1h30m (units ms, s, m, h, d).',
  'domain.duration.noUnit': 'Invalid --{field} "{input}": add a unit, e.g. {input}s or {input}ms (only 0 may stand alone).',
  'domain.duration.negative': 'Invalid --{field} "{input}": a duration cannot be negative.',
  'domain.duration.unknownUnit': 'Invalid --{field} "{input}": unknown unit "{unit}"; use ms, s, m, h or d (e.g. 250ms, 2s, 5m, 1h, 7d).',
  'domain.duration.order': 'Invalid --{field} "{input}": give each unit once, largest first, e.g. 1h30m.',
  'domain.duration.subMillisecond': 'Invalid --{field} "{input}": the smallest step is one millisecond.',
  'domain.duration.tooSmall': 'Invalid --{field} "{input}": it must be at least {min}.',
  'domain.duration.tooLarge': 'Invalid --{field} "{input}": it must be at most {max}.',

  'domain.date.missing': 'Missing --{field}: give a date as YYYY-MM-DD (e.g. 2026-12-31) or a number of days from today (e.g. 30d).',
  'domain.date.invalid':
    'Invalid --{field} "{input}": give a date as YYYY-MM-DD (e.g. 2026-12-31), a number of days from today (e.g. 30d) or an ISO 8601 time with its offset (e.g. 2026-12-31T17:00:00Z).',
  'domain.date.noSuchDay': 'Invalid --{field} "{input}": {yearMonth} has {days} days.',
  'domain.date.badMonth': 'Invalid --{field} "{input}": the month must be 01 to 12.',
  'domain.date.badTime': 'Invalid --{field} "{input}": not a time of day (00:00:00 to 23:59:59, offset up to ±23:59).',
  'domain.date.noOffset':
    'Invalid --{field} "{input}": a time needs its offset, e.g. Z (UTC) or +01:00; or give just the date (YYYY-MM-DD).',
  'domain.date.outOfRange': 'Invalid --{field} "{input}": the year must be between 1000 and 9999.',
  'domain.since.invalid':
    'Invalid --{field} "{input}": give how far back from now (e.g. 7d, 24h, 30m) or a date (2026-01-31, or an ISO 8601 time with its offset).',
  'domain.since.future': 'Invalid --{field} "{input}": it is in the future.',

  'domain.item.invalid':
    'Invalid --{field} "{input}": write NAME:PRICE:QTY, e.g. "Bread:500:3" (NAME:PRICE means quantity 1; a name containing ":" needs all three).',
  'domain.item.emptyName': 'Invalid --{field} "{input}": the name is empty; write NAME:PRICE:QTY, e.g. "Bread:500:3".',
  'domain.item.price':
    'Invalid --{field} "{input}": the price "{price}" must be a whole number of XAF from 0 to {max} (e.g. 500, "1 500" or 1,500).',
  'domain.item.quantity': 'Invalid --{field} "{input}": the quantity "{quantity}" must be a whole number from 1 to {max}.',

  'domain.draft.noItems': 'Missing --{field}: an invoice needs at least one line item, e.g. --item "Bread:500:3".',
  'domain.draft.itemName': 'Invalid --{field} number {index}: the name is empty.',
  'domain.draft.itemPrice':
    'Invalid --{field} number {index} ("{name}"): the price must be a whole number of XAF from 0 to {max}; got {value}.',
  'domain.draft.itemQuantity':
    'Invalid --{field} number {index} ("{name}"): the quantity must be a whole number from 1 to {max}; got {value}.',
  'domain.draft.discount':
    'Invalid --{field} {value}: give a percentage from 0 to 100 (10 means 10% off, not 10 XAF).',
  'domain.draft.customerName': 'Missing --{field}: the customer name is shown on the invoice.',
  'domain.draft.email': 'Invalid --{field} "{value}": give an email address such as awa@example.com.',
  'domain.draft.totalTooLow':
    'The invoice {field} after discount is {total}: the service refuses invoices under {min}.',
  'domain.draft.tooLong': 'Invalid --{field}: at most {max} characters are accepted; got {length}.',
  'domain.draft.itemTooLong': 'Invalid --{field} number {index}: its {part} has {length} characters; at most {max} are accepted.',
  'domain.draft.control': 'Invalid --{field}: it contains a control character (only tab and line breaks are allowed).',
  'domain.draft.totalTooLarge': 'The invoice {field} ({subtotal} before discount) is too large (at most {max}).',

  // A person's terminal: dates as the user writes them, failure codes in words
  'domain.date.relativeHere':
    'Invalid --{field} "{input}": here, write the date itself (e.g. 2026-12-31): a number of days would give another date, and another invoice, on each run.',
  'domain.failure.INSUFFICIENT_FUNDS': 'The customer’s mobile money wallet lacks the funds: ask them to top up, then try again.',
  'domain.failure.CUSTOMER_DECLINED': 'The customer declined the request on their phone: check the amount with them, then try again.',
  'domain.failure.EXPIRED': 'The customer did not approve in time: tell them a request is coming and to approve it on their phone, then try again.',
  'domain.failure.PAYER_NOT_FOUND': 'This number has no mobile money account with this operator: check the number and the operator, then try again.',
  'domain.failure.LIMIT_EXCEEDED': 'The amount is over the customer’s wallet limit (per payment or per day): ask for less, or try again tomorrow.',
  'domain.failure.ACCOUNT_INACTIVE': 'The customer’s mobile money account is blocked or inactive: they must see their operator before paying this way.',
  'domain.failure.PROVIDER_UNAVAILABLE': 'The operator’s service was unavailable and the customer was not charged: try again in a few minutes.',
  'domain.failure.PROVIDER_ERROR': 'The operator reported an error and the customer was not charged: try again; if it keeps failing, contact support with the payment id.',
  'domain.failure.unknown': 'The operator gave a reason this version of svc does not know: check the payment with the customer before trying again.',
  'domain.failure.line': '{code}: {sentence}',
  'domain.duration.noUnitSuggest': 'Invalid --{field} "{input}": add a unit, e.g. {input}{unit}.',
  'domain.amount.dottedThousands': 'Invalid --{field} "{input}": did you mean {spaced}? XAF has no decimals and a dot does not group thousands: write {plain} or "{spaced}".',
} as const
