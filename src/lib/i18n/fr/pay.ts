// Messages en français des commandes de paiement.
import type {pay as en} from '../en/pay.js'

export const pay: {[K in keyof typeof en]: string} = {
  'pay.create.dryRun': 'Simulation : tout est vérifié, rien n’est envoyé. Demanderait au {phone} ({operator}) de payer {amount}.',
  'pay.table.id': 'ID',
  'pay.table.status': 'STATUT',
  'pay.table.amount': 'MONTANT',
  'pay.table.phone': 'TÉLÉPHONE',
  'pay.table.failure': 'CODE D’ÉCHEC',
  'pay.table.created': 'CRÉÉ LE',
  'pay.table.environment': 'ENVIRONNEMENT',
  'pay.table.transaction': 'TRANSACTION',
  'pay.prompt.amount': 'Montant en FCFA (francs entiers)',
  'pay.prompt.phone': 'Numéro Mobile Money du client',
  'pay.what.amount': 'le montant',
  'pay.what.phone': 'le numéro de téléphone',
  'pay.live.action': 'encaisser {amount} auprès du {phone}',
  'pay.create.sending': 'Envoi au {phone} ({operator}) d’une demande de paiement de {amount}…',
  'pay.create.created': 'Paiement {id} créé : EN ATTENTE jusqu’à ce que le client l’approuve sur son téléphone.',
  'pay.create.unknown':
    'La demande de paiement a été envoyée mais son résultat est inconnu ({reason}), et aucun paiement correspondant n’a été trouvé dans la liste.',
  'pay.create.unknownHint':
    'Ne relancez pas simplement la commande (le client recevrait une nouvelle demande). Vérifiez dans une minute avec `svc pay list` s’il existe un paiement de {amount} FCFA du {phone}.',
  'pay.create.recovered':
    'La réponse à la demande de paiement s’est perdue ; le paiement {id} a été retrouvé dans la liste (même montant, même numéro, créé après l’envoi de cette demande selon l’horloge du service). Il n’a pas été créé une seconde fois.',
  'pay.create.ambiguous':
    'La demande de paiement a été envoyée mais sa réponse s’est perdue ({reason}), et le paiement qu’elle a créé ne peut pas être distingué : {count} paiements de ce montant et de ce numéro peuvent l’être :\n{candidates}',
  'pay.create.maybeEarlier':
    'La demande de paiement a été envoyée mais sa réponse s’est perdue ({reason}), et un paiement de ce montant et de ce numéro a été créé à ce moment-là : l’horloge du service, lue à la seconde près, ne permet pas de dire si cette demande l’a créé ou s’il a été créé juste avant (un paiement identique antérieur). Il n’est pas pris pour celui-ci :\n{candidates}',
  'pay.create.candidate': '  {id}  {status}  créé le {created}',
  'pay.create.ambiguousHint':
    'Ne relancez pas simplement la commande (le client recevrait une nouvelle demande). Vérifiez chacun, par exemple `svc pay status {id}`, ou `svc pay list` pour {amount} FCFA du {phone}.',
  'pay.create.next': 'Suivez-le avec : svc pay watch {id}',
  'pay.watch.waiting': 'Paiement {id} : {status}…',
  'pay.watch.interrupted': 'Suivi du paiement {id} arrêté ; le paiement continue sans lui. Reprenez avec : svc pay watch {id}',
  'pay.watch.success': 'Paiement {id} réussi : {amount} encaissés.',
  'pay.watch.timeout': 'Le paiement {id} est toujours {status} à la fin du délai de suivi.',
  'pay.watch.timeoutHint': 'Relancez `svc pay watch {id}` plus tard, ou attendez son événement webhook.',
  'pay.list.none': 'Aucun paiement.',
  'pay.list.limitRange': 'un nombre entier de 1 à 100',
  'pay.list.more': 'Il y a d’autres paiements : utilisez --offset {next} ou --all.',
  'pay.list.progress': '{count} {count|paiement récupéré|paiements récupérés}…',

  // A person's terminal: failure codes in words
  'pay.table.failureMeaning': 'QUE FAIRE',
  'pay.failedExplained': 'Le paiement {id} a échoué ({code}) : {sentence}',

  // A person's terminal: prompt errors name the question, not a flag
  'pay.subject.amount': 'montant',
  'pay.subject.phone': 'numéro Mobile Money',

  // pay watch: a service out of reach
  'pay.watch.unreachable': 'Paiement {id} : dernier état lu {status} ; le service est injoignable depuis {since}, nouvel essai…',
  'pay.watch.statusUnknown': 'Paiement {id} : état inconnu : le service n’a pas pu être joint (depuis {since}).',
  'pay.watch.statusUnknownHint': 'Le paiement a pu aboutir entre-temps. Vérifiez-le quand le service répond : svc pay status {id}',
  // L’opérateur affiché avec un paiement (pay create, status, watch).
  'pay.table.operator': 'OPÉRATEUR',
  'pay.operator.inferred': '{operator} (d’après le numéro)',
}
