/**
 * The admin routes of scenarios (scenarios.ts): scripted numbers, operator outages, faults.
 * Bearer admin token like the rest of `/_admin`; documented in docs/sandbox.md ("Scenarios").
 */
import {TEST_NUMBERS, OPERATORS, type Operator} from '../contract/test-numbers.js'
import {normalisePhone} from '../contract/phone.js'
import {ApiError, validationError} from './errors.js'
import {t} from './i18n/index.js'
import type {Payments} from './payments.js'
import {addAdminRoute} from './admin/route.js'
import type {Router} from './router.js'
import type {Scenarios} from './scenarios.js'

const operatorParam = (value: string): Operator => {
  const operator = value.toUpperCase() as Operator
  if (!OPERATORS.includes(operator))
    throw validationError([{field: 'operator', message: t('sandbox.validation.enum', {field: 'operator', values: OPERATORS.join(', '), got: JSON.stringify(value)})}])
  return operator
}

export function registerScenarioRoutes(router: Router, scenarios: Scenarios, payments: Payments): void {
  // Scripted numbers ------------------------------------------------------------------------------
  const phoneParam = (value: string): string => {
    const phone = normalisePhone(value)
    if (!phone) throw validationError([{field: 'number', message: t('sandbox.payment.phone', {field: 'number'})}])
    return phone
  }
  addAdminRoute(router, 'GET /_admin/numbers', {
    handler: () => ({
      status: 200,
      body: {
        data: [
          ...TEST_NUMBERS.map((row) => ({phone_number: row.phone, operator: row.operator, outcome: row.outcome, scripted: false})),
          ...scenarios.numbers().map((n) => ({...n, scripted: true})),
        ],
      },
    }),
  })
  addAdminRoute(router, 'PUT /_admin/numbers/{number}', {
    handler: (req) => {
      const phone = phoneParam(req.params.number)
      if (scenarios.isTestNumber(phone)) throw validationError([{field: 'number', message: t('sandbox.scenario.testNumber', {number: phone})}])
      const {operator, outcome, then, after_ms: afterMs, failure_code: failureCode} = req.body
      const errors = []
      if (then !== undefined && outcome !== 'UNSPECIFIED') errors.push({field: 'then', message: t('sandbox.scenario.thenOnly')})
      if (afterMs !== undefined && then === undefined) errors.push({field: 'after_ms', message: t('sandbox.scenario.afterOnly')})
      if (failureCode !== undefined && outcome !== 'FAILED' && then !== 'FAILED')
        errors.push({field: 'failure_code', message: t('sandbox.scenario.codeOnly')})
      if (errors.length > 0) throw validationError(errors)
      const entry = scenarios.setNumber({
        phone_number: phone,
        operator,
        outcome,
        ...(then ? {then} : {}),
        ...(then ? {after_ms: afterMs ?? 30_000} : {}),
        ...(failureCode ? {failure_code: failureCode} : {}),
      })
      return {status: 200, body: {...entry, scripted: true}}
    },
  })
  addAdminRoute(router, 'DELETE /_admin/numbers/{number}', {
    handler: (req) => {
      const phone = phoneParam(req.params.number)
      if (scenarios.isTestNumber(phone)) throw validationError([{field: 'number', message: t('sandbox.scenario.testNumber', {number: phone})}])
      if (!scenarios.removeNumber(phone)) throw new ApiError(404, 'not_found', t('sandbox.scenario.notScripted', {number: phone}))
      return {status: 200, body: {phone_number: phone, deleted: true}}
    },
  })

  // Operator outages ------------------------------------------------------------------------------
  addAdminRoute(router, 'GET /_admin/operators', {
    handler: () => ({
      status: 200,
      body: {data: OPERATORS.map((operator) => ({operator, up: !scenarios.outage(operator), outage: scenarios.outage(operator) ?? null}))},
    }),
  })
  addAdminRoute(router, 'POST /_admin/operators/{operator}/down', {
    handler: (req) => {
      const operator = operatorParam(req.params.operator)
      const outage = scenarios.down(operator, req.body.mode ?? 'fail', req.body.for_ms)
      return {status: 200, body: {operator, up: false, outage}}
    },
  })
  addAdminRoute(router, 'POST /_admin/operators/{operator}/up', {
    handler: (req) => {
      const operator = operatorParam(req.params.operator)
      const ended = scenarios.up(operator)
      const resolved = payments.operatorUp(operator)
      return {status: 200, body: {operator, up: true, ended: ended ?? null, payments_resolving: resolved}}
    },
  })

  // Faults ----------------------------------------------------------------------------------------
  addAdminRoute(router, 'GET /_admin/faults', {handler: () => ({status: 200, body: {data: scenarios.faults()}})})
  addAdminRoute(router, 'POST /_admin/faults', {
    handler: (req) => {
      const {route, latency_ms: latency, error, deliveries, delay_ms: delay, rate, for_ms: forMs} = req.body
      const errors = []
      if (deliveries !== undefined) {
        for (const field of ['route', 'latency_ms', 'error'] as const)
          if (req.body[field] !== undefined) errors.push({field, message: t('sandbox.scenario.apiOrDeliveries', {field})})
        if (delay !== undefined && deliveries !== 'delay' && deliveries !== 'reorder')
          errors.push({field: 'delay_ms', message: t('sandbox.scenario.delayOnly')})
      } else {
        if (latency === undefined && error === undefined) errors.push({field: 'error', message: t('sandbox.scenario.faultKind')})
        if (delay !== undefined) errors.push({field: 'delay_ms', message: t('sandbox.scenario.delayOnly')})
      }
      if (route?.split(' ')[1].startsWith('/_admin')) errors.push({field: 'route', message: t('sandbox.scenario.adminRoute')})
      if (errors.length > 0) throw validationError(errors)
      const fault =
        deliveries !== undefined
          ? scenarios.addFault({target: 'deliveries', deliveries, ...(delay === undefined ? {} : {delay_ms: delay}), rate: rate ?? 1}, forMs)
          : scenarios.addFault(
              {
                target: 'api',
                ...(route ? {route} : {}),
                ...(latency === undefined ? {} : {latency_ms: latency}),
                ...(error === undefined ? {} : {error}),
                rate: rate ?? 1,
              },
              forMs,
            )
      return {status: 201, body: fault}
    },
  })
  addAdminRoute(router, 'DELETE /_admin/faults', {
    handler: () => ({status: 200, body: {data: scenarios.clearFaults(), cleared: true}}),
  })
  addAdminRoute(router, 'DELETE /_admin/faults/{faultId}', {
    handler: (req) => {
      const removed = scenarios.clearFaults(req.params.faultId)
      if (removed.length === 0) throw new ApiError(404, 'not_found', t('sandbox.scenario.noFault', {id: req.params.faultId}))
      return {status: 200, body: {data: removed, cleared: true}}
    },
  })
}
