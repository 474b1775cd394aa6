// Messages en français de la section domain : montants, numéros, opérateurs, durées, dates,
// lignes et brouillons de facture. Chaque refus nomme son option et dit ce qui est accepté.
import type {domain as en} from '../en/domain.js'

export const domain: {[K in keyof typeof en]: string} = {
  // L’unité imprimée après les montants : `12 500 FCFA`.
  'domain.xaf.unit': 'FCFA',
  'domain.status.PENDING': 'EN ATTENTE',
  'domain.status.SUCCESS': 'RÉUSSI',
  'domain.status.FAILED': 'ÉCHOUÉ',
  'domain.status.UNSPECIFIED': 'INDÉTERMINÉ',
  'domain.status.DRAFT': 'BROUILLON',
  'domain.status.UNPAID': 'À PAYER',
  'domain.status.PAST_DUE': 'EN RETARD',
  'domain.status.PAID': 'PAYÉE',
  'domain.status.CANCELLED': 'ANNULÉE',

  'domain.amount.missing': 'Il manque --{field} : donnez un nombre entier de francs CFA, au moins {min}, par exemple 5000.',
  'domain.amount.invalid':
    '--{field} « {input} » invalide : donnez un nombre entier de francs CFA en chiffres, éventuellement groupés par trois avec des espaces, par exemple 5000 ou « 5 000 ».',
  'domain.amount.notWhole':
    '--{field} « {input} » invalide : le franc CFA n’a ni décimales ni exposant ; écrivez des francs entiers en chiffres, par exemple 5000 ou « 5 000 ».',
  'domain.amount.grouping':
    '--{field} « {input} » invalide : les séparateurs de milliers doivent découper les chiffres en groupes de trois, par exemple « 5 000 » ou « 1 234 567 » (le franc CFA n’a pas de décimales).',
  'domain.amount.belowMin': '--{field} « {input} » invalide : il faut un nombre entier de francs CFA d’au moins {min}.',
  'domain.amount.tooLarge': '--{field} « {input} » invalide : montant trop élevé ({max} au plus).',

  'domain.phone.missing':
    'Il manque --{field} : donnez un numéro camerounais, par exemple 670000001, 237670000001 ou +237 6 70 00 00 01.',
  'domain.phone.invalid':
    '--{field} « {input} » invalide : donnez un numéro camerounais de 9 chiffres commençant par 6 ou 2, sous la forme 670000001, 237670000001, +237 6 70 00 00 01 ou 00237670000001 (espaces, points, tirets et parenthèses acceptés).',
  'domain.phone.foreign':
    '--{field} « {input} » invalide : ce n’est pas un numéro camerounais (+237) ; seuls les comptes Mobile Money MTN et ORANGE du Cameroun peuvent payer. Formes acceptées : 670000001, 237670000001, +237 6 70 00 00 01 ou 00237670000001.',

  'domain.operator.invalid': '--{field} « {input} » invalide : utilisez MTN ou ORANGE.',
  'domain.operator.unsupportedNetwork':
    '--{field} {phone} invalide : c’est un numéro {network} (préfixe {prefix}) ; seuls les paiements Mobile Money MTN et ORANGE peuvent être encaissés.',
  'domain.operator.unknownPrefix':
    'Impossible de déterminer l’opérateur de --{field} {phone} : le préfixe {prefix} n’est pas un préfixe MTN ou ORANGE connu. Passez --operator MTN ou --operator ORANGE.',
  'domain.operator.warn.contradictsPrefix':
    '{phone} a un préfixe {expected} ({prefix}) mais --operator vaut {given} : envoi en tant que {given}, car un numéro peut changer d’opérateur.',
  'domain.operator.warn.testNumberOther':
    '{phone} est un numéro de test {expected} de la sandbox ; avec --operator {given}, c’est un numéro ordinaire, dont le résultat dans la sandbox est aléatoire (RÉUSSI ou ÉCHOUÉ).',
  'domain.operator.warn.unknownPrefix':
    'Le préfixe {prefix} de {phone} n’est pas un préfixe MTN ou ORANGE connu : envoi en tant que {given}, comme demandé.',

  'domain.duration.missing': 'Il manque --{field} : donnez une durée comme 250ms, 2s, 5m, 1h ou 7d.',
  'domain.duration.invalid':
    '--{field} « {input} » invalide : donnez une durée comme 0, 250ms, 2s, 1.5s, 5m, 1h, 7d ou 1h30m (unités ms, s, m, h, d).',
  'domain.duration.noUnit': '--{field} « {input} » invalide : ajoutez une unité, par exemple {input}s ou {input}ms (seul 0 peut s’écrire sans unité).',
  'domain.duration.negative': '--{field} « {input} » invalide : une durée ne peut pas être négative.',
  'domain.duration.unknownUnit':
    '--{field} « {input} » invalide : unité inconnue « {unit} » ; utilisez ms, s, m, h ou d (par exemple 250ms, 2s, 5m, 1h, 7d).',
  'domain.duration.order': '--{field} « {input} » invalide : donnez chaque unité une seule fois, de la plus grande à la plus petite, par exemple 1h30m.',
  'domain.duration.subMillisecond': '--{field} « {input} » invalide : le plus petit pas est la milliseconde.',
  'domain.duration.tooSmall': '--{field} « {input} » invalide : il faut au moins {min}.',
  'domain.duration.tooLarge': '--{field} « {input} » invalide : il faut au plus {max}.',

  'domain.date.missing': 'Il manque --{field} : donnez une date JJ/MM/AAAA (par exemple 31/12/2026) ou AAAA-MM-JJ, ou un nombre de jours à partir d’aujourd’hui (par exemple 30j).',
  'domain.date.invalid':
    '--{field} « {input} » invalide : donnez une date JJ/MM/AAAA (par exemple 31/12/2026) ou AAAA-MM-JJ, un nombre de jours à partir d’aujourd’hui (par exemple 30j) ou une heure ISO 8601 avec son décalage (par exemple 2026-12-31T17:00:00Z).',
  'domain.date.noSuchDay': '--{field} « {input} » invalide : {yearMonth} compte {days} jours.',
  'domain.date.badMonth': '--{field} « {input} » invalide : le mois doit aller de 01 à 12.',
  'domain.date.badTime': '--{field} « {input} » invalide : ce n’est pas une heure valide (00:00:00 à 23:59:59, décalage jusqu’à ±23:59).',
  'domain.date.noOffset':
    '--{field} « {input} » invalide : une heure doit indiquer son décalage, par exemple Z (UTC) ou +01:00 ; sinon donnez seulement la date (AAAA-MM-JJ).',
  'domain.date.outOfRange': '--{field} « {input} » invalide : l’année doit être comprise entre 1000 et 9999.',
  'domain.since.invalid':
    '--{field} « {input} » invalide : indiquez une durée depuis maintenant (par exemple 7d, 24h, 30m) ou une date (31/01/2026, 2026-01-31, ou une heure ISO 8601 avec son décalage).',
  'domain.since.future': '--{field} « {input} » invalide : c’est dans le futur.',

  'domain.item.invalid':
    '--{field} « {input} » invalide : écrivez NOM:PRIX:QTÉ, par exemple « Pain:500:3 » (NOM:PRIX signifie une quantité de 1 ; un nom contenant « : » exige les trois).',
  'domain.item.emptyName': '--{field} « {input} » invalide : le nom est vide ; écrivez NOM:PRIX:QTÉ, par exemple « Pain:500:3 ».',
  'domain.item.price':
    '--{field} « {input} » invalide : le prix « {price} » doit être un nombre entier de francs CFA de 0 à {max} (par exemple 500 ou « 1 500 »).',
  'domain.item.quantity': '--{field} « {input} » invalide : la quantité « {quantity} » doit être un nombre entier de 1 à {max}.',

  'domain.draft.noItems': 'Il manque --{field} : une facture doit avoir au moins une ligne, par exemple --item "Pain:500:3".',
  'domain.draft.itemName': '--{field} numéro {index} invalide : le nom est vide.',
  'domain.draft.itemPrice':
    '--{field} numéro {index} (« {name} ») invalide : le prix doit être un nombre entier de francs CFA de 0 à {max} ; reçu {value}.',
  'domain.draft.itemQuantity':
    '--{field} numéro {index} (« {name} ») invalide : la quantité doit être un nombre entier de 1 à {max} ; reçu {value}.',
  'domain.draft.discount':
    '--{field} {value} invalide : donnez un pourcentage de 0 à 100 (10 signifie une remise de 10 %, pas de 10 FCFA).',
  'domain.draft.customerName': 'Il manque --{field} : le nom du client figure sur la facture.',
  'domain.draft.email': '--{field} « {value} » invalide : donnez une adresse e-mail comme awa@example.com.',
  'domain.draft.totalTooLow':
    'Le {field} de la facture après remise est de {total} : le service refuse les factures de moins de {min}.',
  'domain.draft.tooLong': '--{field} invalide : {max} caractères au plus sont acceptés ; reçu {length}.',
  'domain.draft.itemTooLong': '--{field} numéro {index} invalide : son {part} compte {length} caractères ; {max} au plus sont acceptés.',
  'domain.draft.control': '--{field} invalide : il contient un caractère de contrôle (seuls la tabulation et les sauts de ligne sont permis).',
  'domain.draft.totalTooLarge': 'Le {field} de la facture ({subtotal} avant remise) est trop élevé ({max} au plus).',

  // A person's terminal: dates as the user writes them, failure codes in words
  'domain.date.relativeHere':
    '--{field} « {input} » invalide : ici, écrivez la date elle-même (par exemple 31/12/2026) : un nombre de jours donnerait une autre date, et une autre facture, à chaque exécution.',
  'domain.failure.INSUFFICIENT_FUNDS': 'Le portefeuille mobile money du client n’a pas assez d’argent : demandez-lui de le recharger, puis réessayez.',
  'domain.failure.CUSTOMER_DECLINED': 'Le client a refusé la demande sur son téléphone : vérifiez le montant avec lui, puis réessayez.',
  'domain.failure.EXPIRED': 'Le client n’a pas validé à temps : prévenez-le qu’une demande arrive et qu’il doit la valider sur son téléphone, puis réessayez.',
  'domain.failure.PAYER_NOT_FOUND': 'Ce numéro n’a pas de compte mobile money chez cet opérateur : vérifiez le numéro et l’opérateur, puis réessayez.',
  'domain.failure.LIMIT_EXCEEDED': 'Le montant dépasse le plafond du portefeuille du client (par paiement ou par jour) : demandez moins, ou réessayez demain.',
  'domain.failure.ACCOUNT_INACTIVE': 'Le compte mobile money du client est bloqué ou inactif : il doit voir son opérateur avant de payer ainsi.',
  'domain.failure.PROVIDER_UNAVAILABLE': 'Le service de l’opérateur était indisponible et le client n’a pas été débité : réessayez dans quelques minutes.',
  'domain.failure.PROVIDER_ERROR': 'L’opérateur a signalé une erreur et le client n’a pas été débité : réessayez ; si l’échec se répète, contactez le support avec l’identifiant du paiement.',
  'domain.failure.unknown': 'L’opérateur a donné une raison que cette version de svc ne connaît pas : vérifiez le paiement avec le client avant de réessayer.',
  'domain.failure.line': '{code} : {sentence}',
  'domain.duration.noUnitSuggest': '--{field} « {input} » invalide : ajoutez une unité, par exemple {input}{unit}.',
  'domain.amount.dottedThousands': '--{field} « {input} » invalide : vouliez-vous dire {spaced} ? Le franc CFA n’a pas de décimales et le point ne sépare pas les milliers : écrivez {plain} ou « {spaced} ».',
}
