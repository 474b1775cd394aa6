/** Fault injection, payments side: pay create|status|list|watch, webhooks trigger, svc api. See fault-matrix.ts. */
import {faultSuite} from './fault-matrix.js'

faultSuite(['pay create', 'pay status', 'pay list', 'pay watch', 'webhooks trigger', 'api GET /v1/payments'])
