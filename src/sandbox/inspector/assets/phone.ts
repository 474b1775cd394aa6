// The customer's phone: a handset for each LIVE payment waiting for its customer, answered with
// the PIN (a wrong one said on the handset itself) or declined.
import type {PhoneCall} from '../../../contract/sandbox-inspector.js'
import {api} from './admin.js'
import {act, formOf, h, say, type Child} from './dom.js'
import {state, t, when, xaf} from './state.js'

/** The payments the handsets ring for, as last drawn (the page is drawn again only when they change). */
export const phone = {ringing: ''}
export const ringingOf = (calls: readonly PhoneCall[]): string => calls.map((c) => c.payment_id).join(',')

export async function phonePage(): Promise<Child> {
  const calls = (await api('GET /_admin/phone')).data
  phone.ringing = ringingOf(calls)
  if (calls.length === 0) return h('p', {class: 'empty'}, t('phone.idle'))
  return h(
    'div',
    {class: 'handsets'},
    calls.map((call) => {
      const pin = `pin-${call.payment_id}`
      const note = state.pinNotes[call.payment_id]
      const answer = (decline: boolean) =>
        act(async (event) => {
          const body = decline ? {decline: true} : {pin: formOf(event).pin ?? ''}
          const result = await api('POST /_admin/phone/{paymentId}/pin', {params: {paymentId: call.payment_id}, body})
          delete state.pinNotes[call.payment_id]
          if (result.status === 'FAILED' && result.failure_code) say(t('phone.locked', {id: call.payment_id, code: result.failure_code}))
          else if (decline) say(t('phone.declined', {id: call.payment_id}))
          // A wrong PIN is said on the handset itself, under the field it was typed in.
          else if (result.tries_left < 3 && result.status === 'PENDING') state.pinNotes[call.payment_id] = t('phone.wrongPin', {left: result.tries_left})
          else say(t('phone.approved', {id: call.payment_id}))
          state.render()
        })
      return h(
        'section',
        {class: `handset ${call.operator.toLowerCase()}`, 'aria-label': `${call.operator} ${call.phone}`},
        h('div', {class: 'operator'}, call.operator, h('span', {class: 'phone-number'}, call.phone)),
        h('p', {class: 'merchant'}, t('phone.incoming', {merchant: call.merchant})),
        h('p', {class: 'amount'}, xaf(call.amount)),
        h('p', {class: 'ref mono'}, call.payment_id),
        h(
          'form',
          {onsubmit: answer(false)},
          h('label', {for: pin}, t('phone.pin')),
          h('input', {
            id: pin,
            name: 'pin',
            type: 'password',
            inputmode: 'numeric',
            autocomplete: 'off',
            maxlength: 12,
            'aria-describedby': note ? `${pin}-note` : undefined,
            'aria-invalid': note ? 'true' : undefined,
          }),
          note ? h('p', {id: `${pin}-note`, class: 'bad pin-note', role: 'alert'}, note) : null,
          h('p', {class: 'hint'}, t('phone.pinHint')),
          h(
            'div',
            {class: 'actions'},
            h('button', {type: 'submit', class: 'approve'}, t('phone.approve')),
            h('button', {type: 'button', class: 'decline', onclick: answer(true)}, t('phone.decline')),
          ),
        ),
        h('p', {class: 'hint'}, t('phone.expires', {time: when(call.expires_at)})),
      )
    }),
  )
}
