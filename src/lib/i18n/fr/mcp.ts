// Messages en français de `svc mcp` (voir en/mcp.ts).
import type {mcp as en} from '../en/mcp.js'

export const mcp: {[K in keyof typeof en]: string} = {
  'mcp.log.started': 'svc mcp : {count} outils servis sur stdio avec la clé {environment} {key}.',
  'mcp.log.noKey':
    'svc mcp : {count} outils servis sur stdio sans clé d’API : seul sandbox_test_numbers fonctionnera tant que vous n’aurez pas passé --api-key, défini SVC_API_KEY ou lancé `svc login`.',
  'mcp.log.readOnly': 'Lecture seule (--read-only) : seuls les outils qui ne modifient rien sont proposés.',
  'mcp.log.liveRefused': 'Clé LIVE : les outils qui déplacent de l’argent ou écrivent aux clients sont refusés (démarrez avec --allow-live-writes pour les permettre).',
  'mcp.log.liveAllowed': 'Clé LIVE avec --allow-live-writes : les outils peuvent déplacer de l’argent et écrire aux clients, sans confirmation.',
  'mcp.log.call': 'outil {name} : {outcome}',
  'mcp.log.stopped': 'svc mcp : le client a fermé la connexion ; arrêt.',

  'mcp.error.input': 'Argument « {field} » invalide (rien n’a été envoyé) : {message}',
  'mcp.error.notObject': 'Les arguments doivent être un objet JSON.',
  'mcp.error.unknownArgument': 'Argument « {name} » inconnu ; {tool} accepte : {allowed}.',
  'mcp.error.missing': 'Argument « {name} » manquant.',
  'mcp.error.string': 'Argument « {name} » invalide : donnez une chaîne de caractères.',
  'mcp.error.boolean': 'Argument « {name} » invalide : donnez true ou false.',
  'mcp.error.integer': 'Argument « {name} » invalide : donnez un nombre entier.',
  'mcp.error.xaf': 'Argument « {name} » invalide : donnez des francs entiers, en nombre (5000) ou en texte (« 5 000 »).',
  'mcp.error.array': 'Argument « {name} » invalide : donnez une liste.',
  'mcp.error.item': 'Argument « {name} » invalide : l’élément {index} doit être un objet {shape}.',
  'mcp.error.choice': 'Argument « {name} » invalide « {value} » : utilisez l’une des valeurs {allowed}.',
  'mcp.error.unknownTool': 'Outil « {name} » inconnu.',
  'mcp.error.readOnly': 'L’outil « {name} » n’est pas proposé : ce serveur a été démarré avec --read-only.',
  'mcp.error.liveRefused':
    'Refusé : il faudrait {action} avec une clé LIVE ({key}), et ce serveur MCP a été démarré sans --allow-live-writes. Rien n’a été envoyé.',

  'mcp.hint.outcomeUnknown': 'N’appelez pas payments_create à nouveau (le client serait sollicité une deuxième fois) : dans une minute, cherchez {amount} au {phone} avec payments_list.',

  'mcp.summary.paymentCreated':
    'Paiement {id} créé : {amount} demandés au {phone} ({operator}) ; PENDING jusqu’à ce que le client l’approuve sur son téléphone. Suivez-le avec payments_wait.',
  'mcp.summary.paymentRecovered':
    'La réponse à la demande de paiement s’est perdue ; le paiement {id} ({status}, {amount} du {phone}), créé à l’instant, a été retrouvé dans la liste. Il n’a pas été recréé.',
  'mcp.summary.payment': 'Paiement {id} : {status}, {amount} du {phone}.',
  'mcp.summary.paymentSucceeded': 'Paiement {id} réussi : {amount} encaissés auprès du {phone}.',
  'mcp.summary.paymentFailed': 'Paiement {id} en échec (FAILED, {code}) : les {amount} du {phone} n’ont pas été encaissés.',
  'mcp.summary.paymentStillPending': 'Le paiement {id} est toujours {status} après {waited} d’attente ; rappelez payments_wait pour continuer d’attendre.',
  'mcp.summary.payments': '{count} {count|paiement|paiements}.',
  'mcp.summary.paymentsMore': '{count} {count|paiement|paiements} ; il y en a d’autres : rappelez avec offset {next}.',
  'mcp.summary.invoiceCreated': 'Facture {id} créée ({status}) pour {customer}, total {total}, Idempotency-Key {key} : invisible pour le client jusqu’à sa publication.',
  'mcp.summary.invoiceCreatedPublished': 'Facture {id} créée et publiée ({status}) pour {customer}, total {total}, Idempotency-Key {key} : payable sur {url}',
  'mcp.summary.invoiceReplayed':
    'La facture {id} existait déjà pour l’Idempotency-Key {key} ({status}, {customer}, total {total}) : rien de nouveau n’a été créé.',
  'mcp.summary.invoicePublishFailed': 'La facture {id} a été créée (DRAFT, Idempotency-Key {key}) mais sa publication a échoué : {message} Publiez-la avec invoices_publish.',
  'mcp.summary.invoice': 'Facture {id} : {status}, {customer}, total {total}, {due} à payer avant le {dueDate}.',
  'mcp.summary.invoicePublished': 'Facture {id} publiée ({status}) : payable sur {url}',
  'mcp.summary.invoicePublishedDelivered': 'Facture {id} publiée ({status}) et remise par {channel} : payable sur {url}',
  'mcp.summary.invoiceSent': 'Facture {id} envoyée par {channel} à {recipient}.',
  'mcp.summary.invoiceCancelled': 'La facture {id} est annulée (CANCELLED).',
  'mcp.summary.invoices': '{count} {count|facture|factures}.',
  'mcp.summary.invoicesMore': '{count} {count|facture|factures} ; il y en a d’autres : rappelez avec page {next}.',
  'mcp.summary.pdf': 'Le PDF de la facture {id} ({bytes} octets) est joint ; son lien fonctionne jusqu’au {expires}.',
  'mcp.summary.receivables': 'Créances au {asOf} : {count} {count|facture ouverte|factures ouvertes}, {due} restant dus, dont {overdue} en retard.',
  'mcp.summary.collections': 'Paiements du {since} au {until} : {count}, {collected} encaissés, taux de réussite {rate}.',
  'mcp.summary.noRate': 'aucun encore définitif',
  'mcp.summary.testNumbers': '{count} numéros de test du bac à sable, chacun avec le résultat qu’il donne toujours (avec son propre opérateur).',
  // mcp: JSON-RPC under bad input
  'mcp.log.tooLarge': 'svc mcp : message de plus de {max} octets refusé ({bytes} octets lus) ; une erreur a été répondue, la session continue.',
  'mcp.log.draining': 'svc mcp : le client a fermé son entrée ; attente de la réponse de {count} {count|appel|appels} en cours.',
  'mcp.log.drainTimedOut': 'svc mcp : {count} {count|appel|appels} toujours sans réponse après {seconds} s ; arrêt sans leurs réponses.',
}
