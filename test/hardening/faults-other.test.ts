/** Fault injection: files upload, login, report collections|receivables. See fault-matrix.ts. */
import {faultSuite} from './fault-matrix.js'

faultSuite(['files upload', 'login', 'report collections', 'report receivables'])
