// Messages en français de `svc webhooks test` (src/lib/webhooks/grade/).
import type {hooktest as en} from '../en/hooktest.js'

export const hooktest: {[K in keyof typeof en]: string} = {
  // Ce que chaque cas envoie.
  'hooktest.what.valid-success': 'un événement payment.success correctement signé',
  'hooktest.what.valid-failed': 'un événement payment.failed correctement signé',
  'hooktest.what.raw-body': 'un événement correctement signé dont le JSON a des espaces, un ordre des clés et un caractère échappé inhabituels',
  'hooktest.what.duplicate': 'le même événement livré deux fois (même webhook-id)',
  'hooktest.what.unknown-type': 'un événement correctement signé d’un type que votre gestionnaire ne connaît pas encore (payment.refunded)',
  'hooktest.what.extra-fields': 'un événement correctement signé portant des champs que votre gestionnaire ne connaît pas',
  'hooktest.what.rotation': 'une livraison à deux signatures, comme pendant une rotation de secret : la première faite avec un autre secret, la seconde valide',
  'hooktest.what.burst': '50 événements correctement signés en même temps',
  'hooktest.what.bad-signature': 'une livraison dont le webhook-signature n’est pas sa signature',
  'hooktest.what.wrong-secret': 'une livraison signée avec un autre secret',
  'hooktest.what.missing-headers': 'trois livraisons, chacune sans l’un des en-têtes webhook-id, webhook-timestamp, webhook-signature',
  'hooktest.what.missingOne': 'une livraison sans l’en-tête {header}',
  'hooktest.what.stale-timestamp': 'une livraison correctement signée dont le webhook-timestamp date de 10 minutes',
  'hooktest.what.future-timestamp': 'une livraison correctement signée dont le webhook-timestamp est 10 minutes en avance',
  'hooktest.what.tampered-body': 'une livraison dont le corps a été modifié après la signature (montant augmenté)',

  // Ce que le gestionnaire fait de travers et comment le corriger : cas à accepter…
  'hooktest.fix.valid-success':
    'Votre gestionnaire a refusé un événement payment.success correctement signé (HTTP {status}) : vérifiez qu’il vérifie avec le secret dont ce test signe (--secret, ou le secret de signature local : svc webhooks listen --print-secret) et répond 2xx dès que la signature est bonne.',
  'hooktest.fix.valid-failed':
    'Votre gestionnaire a refusé un événement payment.failed correctement signé (HTTP {status}) : un paiement échoué est une nouvelle à enregistrer (la commande reste impayée), pas une erreur ; répondez 2xx.',
  'hooktest.fix.raw-body':
    'Votre gestionnaire a refusé un corps correctement signé aux espaces inhabituels (HTTP {status}) : il vérifie un corps resérialisé ; vérifiez les octets bruts tels que reçus (express.raw(), request.text()) et n’analysez le JSON qu’ensuite.',
  'hooktest.fix.duplicate':
    'Votre gestionnaire a refusé la seconde livraison du même événement (HTTP {status}) : la livraison est « au moins une fois », répondez donc 2xx à un webhook-id déjà traité, sans agir une seconde fois.',
  'hooktest.fix.unknown-type':
    'Votre gestionnaire n’a pas accepté un type d’événement qu’il ne connaît pas (HTTP {status}) : répondez 2xx et ignorez les types que vous ne traitez pas, sinon chaque nouveau type ajouté par le service est relivré pendant des jours.',
  'hooktest.fix.extra-fields':
    'Votre gestionnaire n’a pas accepté un événement portant des champs inconnus (HTTP {status}) : ignorez les champs inconnus (pas de schéma strict sur les événements) ; le service ajoute des champs sans préavis.',
  'hooktest.fix.rotation':
    'Votre gestionnaire a refusé une livraison portant deux signatures (HTTP {status}) : pendant une rotation de secret, webhook-signature contient plusieurs signatures « v1,… » séparées par des espaces ; acceptez dès que l’une d’elles correspond.',
  'hooktest.fix.burst':
    '{count} livraisons simultanées sur {total} n’ont pas été acceptées ({answers}) : votre gestionnaire doit accepter des événements concurrents (pas de verrou global, un pool de connexions assez grand) ; répondez 2xx vite et mettez le travail en file.',
  // …et cas à refuser (il a répondu 2xx).
  'hooktest.fix.bad-signature':
    'Votre gestionnaire a accepté une livraison à la signature invalide (HTTP {status}) : il ne vérifie pas les signatures, n’importe qui peut donc forger un payment.success ; vérifiez webhook-signature avec votre secret et répondez 401 s’il ne correspond pas.',
  'hooktest.fix.wrong-secret':
    'Votre gestionnaire a accepté une livraison signée avec un autre secret (HTTP {status}) : vérifiez avec le secret propre à votre point de terminaison et refusez (401) tout ce qui est signé autrement.',
  'hooktest.fix.missing-headers':
    'Votre gestionnaire a accepté une livraison sans l’en-tête {header} (HTTP {status}) : traitez un webhook-id, webhook-timestamp ou webhook-signature absent comme une vérification échouée et répondez 400.',
  'hooktest.fix.stale-timestamp':
    'Votre gestionnaire a accepté une livraison signée il y a 10 minutes (HTTP {status}) : une livraison interceptée pourrait être rejouée à volonté ; refusez les horodatages à plus de 5 minutes de maintenant (les bibliothèques standardwebhooks le font).',
  'hooktest.fix.future-timestamp':
    'Votre gestionnaire a accepté une livraison horodatée 10 minutes en avance (HTTP {status}) : refusez les horodatages à plus de 5 minutes de maintenant, dans les deux sens.',
  'hooktest.fix.tampered-body':
    'Votre gestionnaire a accepté un corps modifié après la signature (HTTP {status}) : vérifiez la signature sur les octets exacts que vous utilisez ensuite, et ne lisez l’événement nulle part ailleurs.',

  // Pour tout cas.
  'hooktest.detail.timeout':
    'Pas de réponse en {timeout} : le service attend 15 s, puis relivre l’événement ; répondez 2xx dès que la signature est bonne et faites le travail lent ensuite (une file, une tâche de fond).',
  'hooktest.detail.timeoutRefuse': 'Pas de réponse en {timeout} à {what} : refusez-la aussitôt par 400 ou 401, avant tout autre travail.',
  'hooktest.detail.unreachable': 'Pas de réponse de {url} ({error}) : votre application tourne-t-elle et écoute-t-elle à cette adresse ?',
  'hooktest.detail.crash':
    'Votre gestionnaire plante (HTTP {status}) sur {what} : quand la vérification échoue, répondez 400 ou 401 au lieu de lever une exception ; un 5xx fait relivrer la contrefaçon par le service.',
  'hooktest.detail.notRefused': 'Votre gestionnaire a répondu HTTP {status} à {what} : refusez-la par 400 ou 401.',
  'hooktest.detail.slow':
    'Réponse en {latency}, plus de 5 s : c’est près des 15 s après lesquelles le service abandonne et relivre l’événement ; répondez d’abord, travaillez ensuite.',
  'hooktest.note.duplicate':
    'Les deux livraisons de l’événement {id} ont reçu une réponse 2xx, comme il se doit. Que votre application ait agi deux fois ne se voit pas à ses réponses : vérifiez que l’événement {id} a été traité une seule fois (une commande marquée payée, un reçu envoyé), en dédoublonnant sur webhook-id.',
  'hooktest.note.refusesAll': 'Votre gestionnaire refuse aussi les événements valides, ses refus ne prouvent donc encore rien : corrigez d’abord valid-success.',

  // Le rapport.
  'hooktest.col.case': 'CAS',
  'hooktest.col.expected': 'ATTENDU',
  'hooktest.col.answer': 'RÉPONSE',
  'hooktest.col.latency': 'LATENCE',
  'hooktest.col.verdict': 'AVIS',
  'hooktest.expect.accept': 'accepter (2xx)',
  'hooktest.expect.refuse': 'refuser (4xx)',
  'hooktest.answer.timeout': 'aucune réponse',
  'hooktest.answer.error': 'injoignable',
  'hooktest.verdict.pass': 'réussi',
  'hooktest.verdict.warn': 'lent',
  'hooktest.verdict.fail': 'ÉCHEC',
  'hooktest.line': '{name} : {text}',
  'hooktest.summary': '{passed} {passed|cas réussi|cas réussis} sur {total}, {failed} en échec.',
  'hooktest.summarySlow': '{passed} {passed|cas réussi|cas réussis} sur {total} ({warned} {warned|lent|lents}), {failed} en échec.',

  // Avant l’envoi (stderr).
  'hooktest.intro': 'Test de {url} : {count} cas de livraisons de test signées (environnement SANDBOX, identifiants evt_test_…), délai {timeout}.',
  'hooktest.secret.flag': 'Signature avec le secret donné par --secret ({secret}).',
  'hooktest.secret.local': 'Signature avec le secret de signature local {secret} ({scope}), celui avec lequel signe svc webhooks listen ; --secret pour en utiliser un autre.',
  'hooktest.sending': 'Envoi de {name}…',
  'hooktest.remote.confirm': 'Envoyer {count} livraisons de test signées à {host} ? Cet hôte n’est pas sur cette machine.',
  'hooktest.remote.refused': 'svc webhooks test enverrait des livraisons de test à {host}, qui n’est pas sur cette machine : passez --yes pour les envoyer quand même.',
  'hooktest.remote.declined': 'Rien n’a été envoyé.',
  'hooktest.remote.notice': 'Envoi à {host}, qui n’est pas sur cette machine (--yes).',

  // Options.
  'hooktest.only.unknown': 'Cas inconnu « {value} » dans --only : utilisez {cases}.',
  'hooktest.only.empty': '--only ne nomme aucun cas : utilisez {cases}.',
  'hooktest.secret.malformed': 'Le --secret est mal formé : un secret de signature s’écrit whsec_ suivi de base64.',
  // webhooks test: a handler that is not running
  'hooktest.notListening': 'Rien n’écoute à {url} (connexion refusée) : démarrez-y votre gestionnaire de webhooks, puis relancez svc webhooks test.',
} as const
