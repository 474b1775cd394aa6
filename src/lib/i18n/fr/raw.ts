// Messages en français de `svc api` et `svc openapi`.
import type {raw as en} from '../en/raw.js'

export const raw: {[K in keyof typeof en]: string} = {
  'raw.method': 'Méthode inconnue « {method} » : utilisez l’une de {accepted}.',
  'raw.absolute': 'Donnez un chemin comme /v1/payments, pas une URL complète : l’URL de base vient du profil ou de --base-url.',
  'raw.field': '{flag} « {field} » invalide : écrivez clé=valeur.',
  'raw.file': 'Impossible de lire {path} ({flag}) : {reason}',
  'raw.json': 'Le corps de la requête n’est pas du JSON valide : {reason}',
  'raw.dataAndField': 'Utilisez --data ou --field, pas les deux.',
  'raw.live': "envoyer {method} {path} (une requête brute qui peut déplacer de l'argent ou joindre des clients)",
  'raw.ops.method': 'MÉTHODE',
  'raw.ops.path': 'CHEMIN',
  'raw.ops.operation': 'OPÉRATION',
  'raw.ops.summary': 'RÉSUMÉ',
  // svc api comme gh api : PATH seul, -X, -H, --input, --paginate.
  'raw.noFile': 'ce fichier n’existe pas.',
  'raw.methodTwice': 'La méthode est donnée deux fois ({arg} et -X {flag}) : donnez-la une seule fois.',
  'raw.dataAndInput': 'Utilisez --data ou --input, pas les deux.',
  'raw.paginateGet': '--paginate suit les pages d’une liste : il lui faut GET, pas {method}.',
  'raw.fieldStdin': '-F clé=@- lit l’entrée standard : pour un seul champ au plus, et pas avec --input - ni -d -.',
}
