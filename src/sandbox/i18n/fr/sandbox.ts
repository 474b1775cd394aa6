// Messages en français de la section sandbox (API et surface d’administration du serveur local).
import type {sandbox as en} from '../en/sandbox.js'

export const sandbox: {[K in keyof typeof en]: string} = {
  'sandbox.xaf.unit': 'FCFA',
  'sandbox.error.validation': 'La requête est invalide. {details}',
  'sandbox.error.notFound': 'Aucun objet {what} d’identifiant « {id} » dans cet environnement.',
  'sandbox.error.noRoute': 'Aucun point d’accès {method} {path}. Voir /v1/openapi.json pour la liste des points d’accès.',
  'sandbox.error.methodNotAllowed': '{method} n’est pas autorisé sur {path} ; utilisez {allowed}.',
  'sandbox.error.rateLimited': 'Limite de {limit} requêtes par minute atteinte pour cette clé : réessayez dans {seconds} s.',
  'sandbox.error.tooLarge': 'Le corps de la requête dépasse {limit} octets.',
  'sandbox.error.internal': 'Erreur interne de la sandbox locale ; cette requête n’a pas abouti. Le détail est dans le journal de la sandbox.',
  'sandbox.error.log': '{method} {path} : erreur interne : {detail}',
  'sandbox.error.workerFailed': 'Le processus de rendu des documents s’est arrêté : {reason}',
  'sandbox.validation.required': '{field} est obligatoire.',
  'sandbox.validation.integer': '{field} doit être un nombre entier (un entier JSON), reçu {got}.',
  'sandbox.validation.type': '{field} doit être de type {type}, reçu {got}.',
  'sandbox.validation.bodyObject': 'Le corps de la requête doit être un objet JSON, reçu {got}.',
  'sandbox.validation.bodyMissing': 'Le corps de la requête est absent : envoyez un objet JSON.',
  'sandbox.validation.jsonSyntax': 'Le corps de la requête n’est pas du JSON valide (au caractère {position}).',
  'sandbox.validation.tooDeep': 'Le corps de la requête est imbriqué sur plus de {depth} niveaux.',
  'sandbox.validation.notUtf8': 'Le corps de la requête n’est pas de l’UTF-8 valide.',
  'sandbox.validation.control': '{field} contient un caractère de contrôle (seuls la tabulation et les sauts de ligne sont permis).',
  'sandbox.validation.notExact': '{field} doit être un nombre entier écrit en chiffres seulement (sans décimales ni exposant) dans les bornes permises, reçu {got}.',
  'sandbox.validation.enum': '{field} doit valoir l’une de ces valeurs : {values} ; reçu {got}.',
  'sandbox.validation.minimum': '{field} doit valoir au moins {minimum}, reçu {got}.',
  'sandbox.validation.maximum': '{field} doit valoir au plus {maximum}, reçu {got}.',
  'sandbox.validation.empty': '{field} ne doit pas être vide.',
  'sandbox.validation.minLength': '{field} doit compter au moins {minLength} caractères.',
  'sandbox.validation.maxLength': '{field} doit compter au plus {maxLength} caractères.',
  'sandbox.validation.pattern': '{field} n’est pas au format attendu, reçu {got}.',
  'sandbox.validation.format': '{field} doit être un {format} valide, reçu {got}.',
  'sandbox.validation.minItems': '{field} doit contenir au moins {minItems} élément(s).',
  'sandbox.validation.maxItems': '{field} doit contenir au plus {maxItems} élément(s).',
  'sandbox.validation.unknownField': '{field} n’est pas un champ connu (champs connus : {known}).',
  'sandbox.payment.phone':
    '{field} doit être un numéro mobile camerounais : 9 chiffres nationaux (670000001), 237XXXXXXXXX ou +237 XXX XXX XXX.',
  'sandbox.payment.approveSandbox':
    'Le paiement {id} est un paiement de sandbox : il se finalise tout seul. Seuls les paiements en production attendent une approbation.',
  'sandbox.payment.notPending': 'Le paiement {id} est {status}, pas PENDING : il ne peut plus être approuvé ni refusé.',
  'sandbox.auth.missing': 'Aucune clé d’API : envoyez-la dans l’en-tête X-API-Key.',
  'sandbox.auth.invalid': 'Clé d’API inconnue : vérifiez X-API-Key (svc_sk_test_… pour la sandbox, svc_sk_live_… pour la production).',
  'sandbox.auth.revoked': 'Cette clé d’API a été révoquée : créez-en une nouvelle.',
  'sandbox.auth.wrongEnvironment': 'L’identifiant « {id} » appartient à l’autre environnement : cette clé est une clé {environment}.',
  'sandbox.auth.scope': 'Cette clé d’API n’a pas la permission « {scope} ».',
  'sandbox.auth.ipNotAllowed': 'L’adresse source {ip} ne figure pas dans la liste des IP autorisées.',
  'sandbox.admin.unauthorized':
    'Surface d’administration : envoyez Authorization: Bearer <jeton admin>, tel qu’affiché par `svc sandbox serve`.',
  'sandbox.admin.cidr': 'cidr « {cidr} » n’est ni une adresse IPv4 ou IPv6 ni une plage CIDR (par exemple 203.0.113.0/24, 2001:db8::/32).',
  'sandbox.admin.cidrNotFound': 'cidr « {cidr} » ne figure pas dans la liste des IP autorisées.',
  'sandbox.admin.url': '{field} doit être une URL http:// ou https://, reçu {got}.',
  'sandbox.admin.percent': 'value doit être un pourcentage entre 0 et 100 quand mode vaut percent.',
  'sandbox.admin.fixed': 'value doit être un nombre entier de francs CFA quand mode vaut fixed.',
  'sandbox.admin.clockPast':
    'ms ferait passer l’horloge de la sandbox au-delà du 31/12/9999 (elle indique {now}) : au plus {max} ms de plus.',
  'sandbox.admin.snapshotName':
    'name doit compter de 1 à 64 lettres, chiffres, points, tirets ou soulignés, et commencer par une lettre ou un chiffre ; reçu {got}.',
  'sandbox.admin.snapshotNotFound': 'Aucun instantané nommé « {name} ». `svc sandbox snapshot list` montre ceux qui sont enregistrés.',
  'sandbox.store.unreadable':
    'Le fichier de données {file} n’est ni une base de la sandbox ni un fichier de données JSON lisible : {reason}',
  'sandbox.store.newer':
    'Le fichier de données {file} a été écrit par un svc plus récent (schéma {version} ; celui-ci connaît jusqu’au {known}) : mettez svc à jour, ou utilisez un autre fichier.',
}
