/** Fault injection, invoices side: create, get, list, publish, cancel, pdf, import. See fault-matrix.ts. */
import {faultSuite} from './fault-matrix.js'

faultSuite(['invoice create', 'invoice get', 'invoice list', 'invoice publish', 'invoice cancel', 'invoice pdf', 'invoice import'])
