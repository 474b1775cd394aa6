// Messages en français de la section webhooks.
import type {webhooks as en} from '../en/webhooks.js'

export const webhooks: {[K in keyof typeof en]: string} = {
  // Options de `svc webhooks listen` et `svc webhooks verify`.
  'webhooks.route.badUrl': '{flag} « {value} » invalide : donnez une adresse http:// ou https://, par exemple http://localhost:3000/webhooks.',
  'webhooks.route.unknownType': 'Type d’événement inconnu « {type} » dans {flag} : utilisez {types}.',
  'webhooks.route.duplicateType': '{flag} donne deux fois une URL pour {type} : une seule URL par type d’événement.',
  'webhooks.route.twoDefaults': '{flag} donne deux URL par défaut : donnez-en une, et TYPE=URL pour les autres types.',
  'webhooks.route.none': 'Aucune destination pour les événements : passez {flag} URL (ou {flag} TYPE=URL).',
  'webhooks.header.malformed': '{flag} « {value} » mal formé : écrivez-le sous la forme « Nom: valeur ».',
  'webhooks.header.reserved': '{flag} ne peut pas définir {name} : l’écouteur le définit lui-même en signant chaque événement.',
  'webhooks.header.duplicate': '{flag} donne {name} deux fois : donnez chaque en-tête une seule fois.',

  // Pourquoi une livraison ne se vérifie pas.
  'webhooks.verify.ok': 'Signature valide : webhook-id {id}, horodatage {timestamp} ({age}).',
  'webhooks.verify.secretMalformed': 'Le secret est mal formé : un secret de signature s’écrit whsec_ suivi de base64 (vérifiez {flag}).',
  'webhooks.verify.headerMissing': 'L’en-tête {header} est absent : passez-le avec {flag} "{header}: …".',
  'webhooks.verify.timestampInvalid': 'L’en-tête webhook-timestamp n’est pas une heure Unix en secondes : « {value} ».',
  'webhooks.verify.timestampTooOld':
    'L’horodatage remonte à {distance}, au-delà de la tolérance de {tolerance} : livraison périmée ou rejouée (ou bien cette horloge avance).',
  'webhooks.verify.timestampTooNew':
    'L’horodatage est {distance} dans le futur, au-delà de la tolérance de {tolerance} : vérifiez l’horloge de l’expéditeur.',
  'webhooks.verify.signatureMalformed':
    'L’en-tête webhook-signature ne contient aucune signature v1 : « v1,<base64> » attendu (séparées par des espaces s’il y en a plusieurs).',
  'webhooks.verify.signatureMismatch':
    'Signature incorrecte : le contenu n’a pas été signé avec ce secret, ou il a changé après la signature (les espaces comptent).',
  'webhooks.verify.trailingNewline':
    'La vérification réussit sans le saut de ligne final : le fichier se termine par un saut de ligne que l’expéditeur n’a pas signé.',
  'webhooks.verify.payloadUnreadable': 'Impossible de lire {flag} « {path} » : {reason}',
  'webhooks.verify.inPast': 'dans le passé',
  'webhooks.verify.inFuture': 'dans le futur',
  'webhooks.verify.now': 'à l’instant',
  'webhooks.verify.ago': 'il y a {distance}',
  'webhooks.verify.ahead': 'dans {distance}',

  // Les lignes de l’écouteur et ses réponses à l’expéditeur.
  'webhooks.listen.forwarded': '{time}  {type}  {id}  [{status}]  {latency} ms',
  'webhooks.listen.retrying': '{time}  {type}  {id}  [{status}]  {latency} ms, tentative {attempt} : nouvel essai dans {retryIn}',
  'webhooks.listen.unreachable': '{time}  {type}  {id}  votre application est injoignable ({error}), tentative {attempt} : nouvel essai dans {retryIn}',
  'webhooks.listen.duplicate': '{time}  {type}  {id}  livraison en double : acquittée, pas retransmise',
  'webhooks.listen.filtered': '{time}  {type}  {id}  ignoré : absent de --events',
  'webhooks.listen.noRoute': '{time}  {type}  {id}  ignoré : aucun --forward-to pour ce type',
  'webhooks.listen.rejected': '{time}  livraison refusée (401) : {message}',
  'webhooks.listen.badBody': 'Ce n’est pas un événement : le corps n’est pas un objet JSON avec un « id » et un « type ».',
  'webhooks.listen.tooLarge': 'Le corps dépasse {limit} octets.',
  'webhooks.listen.methodNotAllowed': 'Envoyez les événements à cette adresse par POST.',
  'webhooks.listen.pending': '{count} {count|événement pas encore livré|événements pas encore livrés} à votre application : {ids}',
  'webhooks.listen.nonePending': 'Rien en attente : chaque événement a atteint votre application.',
  'webhooks.listen.resumed': 'Reprise de {count} {count|événement non livré|événements non livrés} avant le dernier arrêt.',
  'webhooks.listen.ready': 'Prêt : réception des événements sur {url}',
  'webhooks.listen.source.sandbox':
    'Événements : la sandbox locale de {base} livre ici ses événements {environment}, chaque ligne marquée de son environnement (point de terminaison {id}, supprimé à l’arrêt ; --env restreint).',
  'webhooks.listen.and': ' et ',
  'webhooks.listen.envNotLocal':
    '--env {env} invalide : seule une sandbox locale transmet les deux environnements ; ces identifiants suivent leur propre environnement ({environment}). Retirez --env, ou utilisez une clé de cet environnement.',
  'webhooks.listen.source.inbound':
    'Événements : livraisons entrantes, vérifiées avec le secret de signature du webhook de {scope} ; dirigez votre tunnel vers le port {port}.',
  'webhooks.listen.source.poll': 'Événements : lecture de la liste des paiements de {base} toutes les {interval} ; chaque paiement finalisé devient un événement.',
  'webhooks.listen.forwardingTo': 'Retransmission vers {url}',
  'webhooks.listen.forwardingType': 'Retransmission de {type} vers {url}',
  'webhooks.listen.eventsOnly': 'Seulement ces événements : {events}',
  'webhooks.listen.extraHeaders': 'Avec les en-têtes supplémentaires : {names}',
  'webhooks.listen.secret': 'Secret de signature local (votre application vérifie avec lui ; --print-secret l’affiche seul) : {secret}',
  'webhooks.listen.stopHint': 'Appuyez sur Ctrl-C pour arrêter.',
  'webhooks.listen.inboundNoSecret':
    'Aucun secret de signature de webhook pour les livraisons entrantes ({scope}) : donnez-le une fois avec --endpoint-secret-stdin, par exemple printf %s "$SECRET" | svc webhooks listen --endpoint-secret-stdin.',
  'webhooks.listen.endpointSecretEmpty':
    'Rien sur l’entrée standard : --endpoint-secret-stdin y lit le secret de signature du webhook (whsec_…).',
  'webhooks.listen.endpointSecretMalformed':
    'Le secret de signature lu sur l’entrée standard est mal formé : un secret de signature s’écrit whsec_ suivi de base64.',
  'webhooks.listen.endpointSecretSaved':
    'Secret de signature {secret} enregistré pour {scope} : les livraisons entrantes seront vérifiées avec lui.',

  // Rejeu et journal des événements.
  'webhooks.replay.notFound':
    'Aucun événement {id} dans le journal local ({path}) : les événements sont journalisés pendant que `svc webhooks listen` tourne.',
  'webhooks.replay.noRoute': 'Aucun --forward-to ne reçoit les événements de type {type}.',
  'webhooks.replay.noRoutes':
    'Aucune destination : passez --forward-to URL (sinon le rejeu reprend les routes utilisées en dernier par `svc webhooks listen` pour ce profil).',
  'webhooks.replay.sent': '{time}  {type}  {id}  [{status}]  {latency} ms  rejoué vers {url}',
  'webhooks.replay.unreachable': '{time}  {type}  {id}  votre application est injoignable à {url} ({error})',
  'webhooks.replay.failed': 'Votre application n’a pas accepté {id} à {url} ({reason}) ; relancez le rejeu quand elle l’acceptera.',

  // `svc webhooks trigger`.
  'webhooks.trigger.liveRefused':
    'webhooks trigger crée un vrai paiement : il ne fonctionne qu’avec des clés de sandbox (svc_sk_test_…), et {key} est une clé LIVE.',
  'webhooks.trigger.noTestNumber': 'Aucun numéro de test {operator} ne se termine en {outcome}.',
  'webhooks.trigger.sending': 'Création d’un paiement de sandbox avec le numéro de test {phone} ({operator}) pour un événement {type}…',
  'webhooks.trigger.waiting': 'En attente de la finalisation du paiement {id}…',
  'webhooks.trigger.created':
    'Paiement {id} ({amount}) créé avec le numéro de test {phone} ({operator}, toujours {outcome}) : son événement {type} suivra à sa finalisation, dans quelques secondes.',
  'webhooks.trigger.settled': 'Paiement {id} finalisé en {status} : son événement {type} est en route.',
  'webhooks.trigger.listenHint': 'Recevez-le en local avec : svc webhooks listen --forward-to http://localhost:3000/webhooks',

  // La source par interrogation.
  'webhooks.poll.failed': 'Impossible de lire la liste des paiements ({message}) ; nouvel essai dans {interval}.',
  'webhooks.poll.stateUnreadable': 'Le fichier d’état {path} n’est pas valide ({reason}) : supprimez-le pour repartir de zéro.',

  'webhooks.replay.oneOf': 'Donnez soit un EVENT_ID, soit --all-failed : un événement, ou tous ceux que votre application n’a jamais acceptés.',
  'webhooks.replay.noneFailed': 'Aucun événement en échec pour {scope} : votre application a accepté chaque événement envoyé (svc webhooks events les liste).',
  'webhooks.replay.allDelivered': 'Votre application a accepté {count} {count|événement renvoyé|événements renvoyés} sur {count}.',
  'webhooks.replay.someRefused': '{count} {count|événement renvoyé|événements renvoyés} sur {total} non {count|accepté|acceptés} par votre application ; relancez le renvoi quand elle les accepte (svc webhooks events --status failed les liste).',
  'webhooks.replay.asWebhookId': ', avec le webhook-id {webhookId}',

  // `svc webhooks events` : le journal local des événements.
  'webhooks.events.col.received': 'REÇU',
  'webhooks.events.col.id': 'ÉVÉNEMENT',
  'webhooks.events.col.type': 'TYPE',
  'webhooks.events.col.status': 'STATUT',
  'webhooks.events.col.attempts': 'ESSAIS',
  'webhooks.events.col.answer': 'DERNIÈRE RÉPONSE',
  'webhooks.events.status.delivered': 'livré',
  'webhooks.events.status.pending': 'en attente',
  'webhooks.events.status.failed': 'en échec',
  'webhooks.events.status.skipped': 'ignoré',
  'webhooks.events.none': 'Aucun événement journalisé pour {scope} : `svc webhooks listen` journalise chaque événement reçu.',
  'webhooks.events.noneWithStatus': 'Aucun événement {status} journalisé pour {scope}.',
  'webhooks.events.badStatus': '--status « {value} » invalide : utilisez {statuses}.',
  'webhooks.events.badLimit': '--limit {value} invalide : donnez un nombre entier de 1 à 10000.',

  // Durées : « 7 min 12 s ».
  'webhooks.duration.ms': '{n} ms',
  'webhooks.duration.s': '{n} s',
  'webhooks.duration.min': '{n} min',
  'webhooks.duration.h': '{n} h',
  'webhooks.duration.d': '{n} {n|jour|jours}',
  // listen across sandbox restarts (sandbox-watch.ts)
  'webhooks.listen.sandboxLost': '{time}  La sandbox a disparu : {reason}. En attente de la sandbox de {url} (celle-là seule, et seulement quand elle accepte la clé de ce profil) ; les événements qu’elle crée entre-temps seront transmis dès qu’elle répondra de nouveau.',
  'webhooks.listen.lostReason.unreachable': 'elle est injoignable',
  'webhooks.listen.lostReason.unregistered': 'elle n’a plus ce listener enregistré (une remise à zéro ou une restauration)',
  'webhooks.listen.sandboxBack': '{time}  La sandbox de {url} est revenue : réenregistré comme point d’accès {id} ; {count} {count|événement|événements} qu’elle a {count|créé|créés} depuis le dernier reçu {count|transmis|transmis} (déconnecté {from}–{to}).',
  'webhooks.listen.sandboxBackUncovered': '{time}  La sandbox de {url} est revenue : réenregistré comme point d’accès {id}, mais sa liste d’événements n’a pas pu être lue ({reason}) : des événements entre {from} et {to} ont pu ne pas atteindre votre application.',
  'webhooks.listen.nonePendingReceived': 'Rien en attente : chaque événement reçu par le listener a atteint votre application.',
  'webhooks.listen.gapCovered': 'Déconnecté de la sandbox de {url} {from}–{to} : {count} {count|événement créé|événements créés} entre-temps {count|transmis|transmis} à son retour.',
  'webhooks.listen.gapUncovered': 'Déconnecté de la sandbox de {url} {from}–{to} : sa liste d’événements n’a pas pu être lue, des événements de cet intervalle ont pu ne pas atteindre votre application.',
  'webhooks.listen.endpointsLeft': 'Impossible de retirer les points d’accès que ce listener a enregistrés ({ids}) de la sandbox de {url} : elle est injoignable. Quand elle tournera de nouveau, `svc sandbox webhooks remove ID` les retire.',
  'webhooks.listen.gapOpen': 'Déconnecté de la sandbox de {url} depuis {since} : les événements depuis n’ont pas atteint votre application. Relancez listen quand cette sandbox sera revenue.',
  // Une convention pour les listes : l’indication qu’il y en a d’autres.
  'webhooks.events.more': 'Il y a d’autres événements : voici les {limit} plus récents ; augmentez --limit (10000 au plus).',
}
