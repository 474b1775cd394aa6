// Messages en français de la section api (client HTTP, erreurs, relances, cadence, découverte).
import type {api as en} from '../en/api.js'

export const api: {[K in keyof typeof en]: string} = {
  'api.error.nonJson': 'Le service a répondu {status} {reason} avec un corps qui n’est pas une erreur JSON ({contentType}) : « {excerpt} »',
  'api.error.nonJsonEmpty': 'Le service a répondu {status} {reason} avec un corps vide.',
  'api.error.badJson':
    'Le service a répondu {status} {reason} à {method} {url}, mais son corps n’est pas du JSON valide ({contentType}) : « {excerpt} ». Le résultat est peut-être inconnu.',
  'api.error.timeout':
    '{method} {url} n’a pas reçu de réponse complète en {seconds} s.',
  'api.error.network':
    'Échec de {method} {url} : {reason}.',
  'api.error.notConnected': "Connexion impossible à {url} ({code}) : rien n'a été envoyé.",
  'api.error.reset': 'la connexion a été fermée avant la fin de la réponse ({code})',
  'api.error.aborted': '{method} {url} a été interrompu. Le résultat est peut-être inconnu.',
  'api.error.tooManyRedirects': '{method} {url} a été redirigé plus de {max} fois.',
  'api.error.badUrl': 'Adresse de requête invalide « {url} ».',
  'api.error.unrecognisedList': 'Le service a renvoyé une liste de forme inconnue (clés : {keys}).',
  'api.hint.notFound': 'Vérifiez l’identifiant : rien ne le porte dans cet environnement (un identifiant créé avec une clé sandbox, `…_test_…`, n’existe que dans la sandbox). `svc pay list` et `svc invoice list` montrent ce qui existe.',
  'api.hint.unknownPath': 'Le service n’a pas de chemin {path} : `svc openapi --operations` liste ceux qu’il a.',
  'api.hint.auth': 'Vérifiez la clé d’API (X-API-Key) et qu’elle appartient bien à l’environnement des données demandées.',
  'api.hint.rateLimited': 'Limite de requêtes du service atteinte : attendez {seconds} s puis réessayez.',
  'api.hint.rateLimitedNoDelay': 'Limite de requêtes du service atteinte : attendez un peu puis réessayez.',
  'api.hint.unreachable': "Vérifiez l'URL de base (--base-url, SVC_BASE_URL), votre réseau et le proxy éventuel (HTTPS_PROXY, NO_PROXY), puis relancez la commande.",
  'api.hint.unknownOutcome': 'Le résultat est peut-être inconnu : la requête a peut-être quand même été traitée. Vérifiez si l’opération a eu lieu avant de la relancer.',
  'api.hint.safeRetry':
    'Le service a peut-être agi. Cette requête portait Idempotency-Key: {key}. Ne réessayez qu’avec cette clé, qui rejoue la première réponse au lieu d’agir deux fois : `{command}`',
  'api.hint.requestId': 'Identifiant de requête : {requestId}',
  'api.trace.request': '> {method} {url}{attempt}',
  'api.trace.response': '< {status} {reason} ({ms} ms, {bytes} octets)',
  'api.trace.failed': '< échec après {ms} ms : {reason}',
  'api.trace.retry': '* nouvel essai {n}/{max} dans {delay} ms après {reason}',
  'api.wait.pacing': 'Limite de débit : attente de {seconds} s avant la prochaine requête (le service n’accepte qu’un nombre limité de requêtes par minute ; SVC_RATE_LIMIT règle le rythme)…',
  'api.wait.retry': 'Le service a demandé de ralentir ou a échoué un instant : nouvel essai dans {seconds} s…',
  'api.trace.noRetry': '* pas de nouvel essai : {reason}',
  'api.trace.pacing': '* cadence : attente de {delay} ms pour rester sous la limite de requêtes',
  'api.trace.redirect': '* redirection suivie vers {url}',
  'api.trace.discovery': '* opérations lues depuis {source}{detail}',
  'api.trace.builtInDescription': 'la description intégrée de svc',

  // waits before a retry, by what caused them (a 429, another status)
  'api.wait.retry429': 'Le service demande de ralentir (429) : nouvel essai dans {seconds} s…',
  'api.wait.retryStatus': 'Le service a répondu {status} : nouvel essai dans {seconds} s…',
}
