/**
 * Fault injection with a prior identical payment: every fault of the matrix against `pay create`
 * when the same amount and number were paid a moment before. See fault-matrix.ts.
 */
import {faultSuite} from './fault-matrix.js'

faultSuite(['pay create after an identical payment'])
