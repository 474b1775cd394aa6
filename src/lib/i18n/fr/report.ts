// Messages en français des rapports (créances, encaissements).
import type {report as en} from '../en/report.js'

export const report: {[K in keyof typeof en]: string} = {
  'report.bucket.not_due': 'Pas encore échu',
  'report.bucket.days_1_30': '1 à 30 jours',
  'report.bucket.days_31_60': '31 à 60 jours',
  'report.bucket.days_61_90': '61 à 90 jours',
  'report.bucket.days_over_90': 'Plus de 90 jours',
  'report.chart.figure': '{amount} ({count})',
  'report.rate': '{rate} %',
  'report.none': '—',
  'report.table.customer': 'CLIENT',
  'report.table.invoices': 'FACTURES',
  'report.table.amountDue': 'RESTE À PAYER',
  'report.table.oldestDue': 'PLUS ANCIENNE ÉCHÉANCE',
  'report.table.daysPastDue': 'JOURS DE RETARD',
  'report.table.total': 'TOTAL',
  'report.table.date': 'DATE',
  'report.table.operator': 'OPÉRATEUR',
  'report.table.payments': 'PAIEMENTS',
  'report.table.amount': 'MONTANT',
  'report.table.collected': 'ENCAISSÉ',
  'report.table.rate': 'TAUX DE RÉUSSITE',
  'report.table.perDay': 'ENCAISSÉ PAR JOUR',
  'report.table.code': 'CODE D’ÉCHEC',
  'report.table.count': 'NOMBRE',
  'report.receivables.title':
    'Créances au {asOf} : {count} {count|facture ouverte|factures ouvertes}, {amount} à encaisser (dont {partly} {partly|partiellement payée|partiellement payées}).',
  'report.receivables.none': 'Aucune facture ouverte au {asOf} : rien n’est dû.',
  'report.receivables.byAge': 'Par ancienneté (jours de retard ; nombre de factures entre parenthèses)',
  'report.receivables.byCustomer': 'Par client',
  'report.receivables.noName': '(sans nom)',
  'report.collections.title':
    'Encaissements du {since} au {until} : {count} {count|paiement|paiements}, {amount} {count|demandé|demandés}, {collected} encaissés.',
  'report.collections.none': 'Aucun paiement du {since} au {until}.',
  'report.collections.rate':
    'Taux de réussite : {rate} des {final} paiements au statut final ({success} {success|RÉUSSI|RÉUSSIS}, {failed} {failed|ÉCHOUÉ|ÉCHOUÉS}) ; pas encore finalisés : {pending} EN ATTENTE, {unspecified} {unspecified|INDÉTERMINÉ|INDÉTERMINÉS}.',
  'report.collections.rateNone':
    'Taux de réussite : aucun de ces paiements n’a encore de statut final ({pending} EN ATTENTE, {unspecified} {unspecified|INDÉTERMINÉ|INDÉTERMINÉS}).',
  'report.collections.byDay': 'Par jour',
  'report.collections.byWeek': 'Par semaine',
  'report.table.weekOf': 'SEMAINE DU',
  'report.operator.other': 'autre',
  'report.collections.byOperator': 'Par opérateur (déduit)',
  'report.collections.sparkline': 'Encaissé par jour (paiements RÉUSSIS ; maximum {max}) :',
  'report.collections.failureCodes': 'Codes d’échec, du plus fréquent au moins fréquent',
  'report.collections.noFailures': 'Aucun paiement en échec.',
  'report.collections.fees':
    'Les montants sont bruts, tels que l’API les renvoie : les frais ne sont pas un champ de l’API, donc aucun n’est déduit.',
  'report.collections.inferred':
    'L’objet Payment n’a pas de champ opérateur : l’opérateur est déduit du numéro (numéros de test, puis préfixe) ; un numéro qui ne permet pas de le savoir est classé « autre ».',
  'report.progress.invoices': 'Lecture des factures ouvertes : {count} jusqu’ici…',
  'report.progress.payments': 'Lecture des paiements : {count} jusqu’ici…',
  'report.error.pageSize': 'un nombre entier de 1 à 100',
  'report.error.untilBeforeSince': '--until ({until}) doit être postérieur à --since ({since}).',
}
