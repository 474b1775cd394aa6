// The settings page: keys (a new one's secret shown once), webhook endpoints, the IP allowlist, the
// business, fees, the sandbox clock, and scenarios (scripted numbers, operator outages, faults).
import {api} from './admin.js'
import {act, field, formOf, h, say, select, table, type Child} from './dom.js'
import {state, t, when} from './state.js'
import {rows, type FaultRow, type OperatorRow} from './views.js'

export async function settingsPage(): Promise<Child[]> {
  const [keys, endpoints, allowlist, business, fees, clock, operators, faults, numbers] = await Promise.all([
    api('GET /_admin/keys'),
    api('GET /_admin/webhook-endpoints'),
    api('GET /_admin/allowlist'),
    api('GET /_admin/business'),
    api('GET /_admin/fees'),
    api('GET /_admin/clock'),
    api('GET /_admin/operators'),
    api('GET /_admin/faults'),
    api('GET /_admin/numbers'),
  ])
  const reload = async (text?: string | false) => {
    await state.render()
    if (text) say(text)
  }
  const saved = () => reload(t('settings.saved'))
  const envSelect = () => select('environment', [['SANDBOX', 'SANDBOX'], ['LIVE', 'LIVE']], 'SANDBOX')
  const remove = (work: () => Promise<unknown>) => h('button', {type: 'button', onclick: act(async () => (await work(), saved()))}, t('settings.remove'))
  return [
    h('h2', {}, t('settings.keys')),
    state.secret ? h('p', {class: 'secret', role: 'alert'}, t('settings.secretOnce', {secret: state.secret})) : null,
    h(
      'form',
      {
        class: 'filters',
        onsubmit: act(async (event) => {
          const created = await api('POST /_admin/keys', {body: {environment: formOf(event).environment as 'SANDBOX' | 'LIVE'}})
          state.secret = created.secret
          await reload()
          state.secret = undefined
        }),
      },
      field(t('col.environment'), envSelect()),
      h('button', {type: 'submit'}, t('settings.createKey')),
    ),
    table(
      [t('col.id'), t('col.key'), t('col.environment'), t('col.created'), ''],
      keys.data.map((k) =>
        h(
          'tr',
          {},
          h('td', {class: 'mono'}, k.id),
          h('td', {class: 'mono'}, k.key),
          h('td', {}, k.environment),
          h('td', {}, when(k.created_at)),
          h(
            'td',
            {},
            k.revoked
              ? t('settings.revoked')
              : h('button', {type: 'button', onclick: act(async () => reload((await api('POST /_admin/keys/{keyId}/revoke', {params: {keyId: k.id}})) && t('settings.saved')))}, t('settings.revoke')),
          ),
        ),
      ),
      t('settings.keys'),
    ),
    h('h2', {}, t('settings.endpoints')),
    h(
      'form',
      {
        class: 'filters',
        onsubmit: act(async (event) => {
          const data = formOf(event)
          await api('POST /_admin/webhook-endpoints', {body: {url: data.url, environment: data.environment as 'SANDBOX' | 'LIVE'}})
          await saved()
        }),
      },
      field(t('col.url'), h('input', {name: 'url', type: 'url', required: true, placeholder: 'http://127.0.0.1:3000/hooks'})),
      field(t('col.environment'), envSelect()),
      h('button', {type: 'submit'}, t('settings.addEndpoint')),
    ),
    table(
      [t('col.url'), t('col.environment'), t('col.id'), ''],
      endpoints.data.map((e) =>
        h('tr', {}, h('td', {}, e.url), h('td', {}, e.environment), h('td', {class: 'mono'}, e.id), h('td', {}, remove(() => api('DELETE /_admin/webhook-endpoints/{endpointId}', {params: {endpointId: e.id}})))),
      ),
      t('settings.endpoints'),
    ),
    h('h2', {}, t('settings.allowlist')),
    allowlist.data.length === 0 ? h('p', {class: 'empty'}, t('settings.allowlistEmpty')) : null,
    h('ul', {}, allowlist.data.map((entry) => h('li', {}, entry.cidr, ' ', remove(() => api('DELETE /_admin/allowlist', {query: {cidr: entry.cidr}}))))),
    h(
      'form',
      {class: 'filters', onsubmit: act(async (event) => (await api('POST /_admin/allowlist', {body: {cidr: formOf(event).cidr}}), saved()))},
      field('CIDR', h('input', {name: 'cidr', required: true, placeholder: '127.0.0.1/32'})),
      h('button', {type: 'submit'}, t('settings.add')),
    ),
    h('h2', {}, t('settings.business')),
    h(
      'form',
      {
        class: 'filters',
        onsubmit: act(async (event) => {
          const data = formOf(event)
          await api('PUT /_admin/business', {body: {name: data.name, language: data.language as 'en' | 'fr'}})
          await saved()
        }),
      },
      field(t('settings.name'), h('input', {name: 'name', value: business.name, required: true, maxlength: 100})),
      field(t('settings.customerLanguage'), select('language', [['en', 'English'], ['fr', 'Français']], business.language)),
      h('button', {type: 'submit'}, t('settings.save')),
    ),
    h('h2', {}, t('settings.fees')),
    h(
      'form',
      {
        class: 'filters',
        onsubmit: act(async (event) => {
          const data = formOf(event)
          await api('PUT /_admin/fees', {body: {mode: data.mode as 'percent' | 'fixed', value: Number(data.value), absorb_fees: data.absorb_fees === 'on'}})
          await saved()
        }),
      },
      field(t('settings.feeMode'), select('mode', [['percent', '%'], ['fixed', 'XAF']], fees.mode)),
      field(t('settings.feeValue'), h('input', {name: 'value', type: 'number', min: 0, step: 'any', value: fees.value, required: true})),
      h('label', {class: 'check'}, h('input', {type: 'checkbox', name: 'absorb_fees', checked: fees.absorb_fees}), t('settings.absorb')),
      h('button', {type: 'submit'}, t('settings.save')),
    ),
    h('h2', {}, t('settings.clock')),
    h('p', {}, when(clock.now)),
    h(
      'form',
      {class: 'filters', onsubmit: act(async (event) => (await api('POST /_admin/clock/advance', {body: {ms: Math.round(Number(formOf(event).minutes) * 60_000)}}), saved()))},
      field(t('settings.advance'), h('input', {name: 'minutes', type: 'number', min: 1, value: 5, required: true})),
      h('button', {type: 'submit'}, t('settings.save')),
    ),
    h('h2', {}, t('settings.scenarios')),
    h('h3', {}, t('settings.numbers')),
    table(
      [t('col.phone'), t('col.operator'), t('col.status'), ''],
      numbers.data.map((n) =>
        h(
          'tr',
          {},
          h('td', {class: 'mono'}, n.phone_number),
          h('td', {}, n.operator),
          h('td', {}, [n.outcome, n.then ? `→ ${n.then}` : '', n.failure_code ?? ''].filter(Boolean).join(' ')),
          h('td', {}, n.scripted ? remove(() => api('DELETE /_admin/numbers/{number}', {params: {number: n.phone_number}})) : ''),
        ),
      ),
      t('settings.numbers'),
    ),
    h('h3', {}, t('settings.operators')),
    h(
      'ul',
      {},
      rows<OperatorRow>(operators).map((o) =>
        h(
          'li',
          {},
          t(o.up ? 'settings.operatorUp' : 'settings.operatorDown', {operator: o.operator}),
          ' ',
          h(
            'button',
            {
              type: 'button',
              onclick: act(async () => {
                if (o.up) await api('POST /_admin/operators/{operator}/down', {params: {operator: o.operator}})
                else await api('POST /_admin/operators/{operator}/up', {params: {operator: o.operator}})
                await saved()
              }),
            },
            t(o.up ? 'settings.takeDown' : 'settings.bringUp'),
          ),
        ),
      ),
    ),
    h('h3', {}, t('settings.faults')),
    faults.data.length === 0
      ? h('p', {class: 'empty'}, t('empty'))
      : h(
          'ul',
          {},
          rows<FaultRow>(faults).map((f) => h('li', {}, `${f.id} ${f.route ?? f.deliveries ?? ''} ${f.error ?? ''}`, ' ', remove(() => api('DELETE /_admin/faults/{faultId}', {params: {faultId: f.id}})))),
        ),
  ]
}
