// Messages en français de `svc sandbox walkthrough` (la visite guidée).
import type {walk as en} from '../en/walk.js'

export const walk: {[K in keyof typeof en]: string} = {
  'walk.intro':
    'Visite guidée de svc : tout le parcours, étape par étape, sur une sandbox. Chaque étape dit ce que prévoit la spécification et ce qui s’est passé.',
  'walk.target.inProcess':
    'Aucun profil sandbox n’est configuré : une sandbox locale tourne donc dans cette commande, sur {url} (sans clé, sans réseau).',
  'walk.target.profile': 'Utilisation de la sandbox de votre profil, sur {url}.',
  'walk.events.listening':
    'Un point de terminaison webhook local est enregistré sur {url} : la signature de chaque événement envoyé par la sandbox est vérifiée.',
  'walk.events.unavailable':
    'Les points de terminaison webhook de cette sandbox se configurent dans son tableau de bord : l’étape des événements est sautée (voir `svc webhooks listen`).',
  'walk.events.waiting': 'En attente des événements signés des deux paiements…',
  'walk.pay.success': '1. Encaisser {amount} auprès du {phone} ({operator}), un numéro de test qui réussit toujours.',
  'walk.pay.failed': '2. Encaisser {amount} auprès du {phone} ({operator}), un numéro de test qui échoue toujours.',
  'walk.pay.failureCode':
    '   Un paiement en échec porte un failure_code stable ({code}) : basez votre logique sur lui, pas sur les messages.',
  'walk.check.created': 'Paiement créé',
  'walk.step.success': 'Le numéro toujours RÉUSSI aboutit',
  'walk.step.failed': 'Le numéro toujours ÉCHOUÉ aboutit',
  'walk.step.invoiceCreated': 'Facture créée',
  'walk.step.invoicePublished': 'Facture publiée',
  'walk.step.checkout': 'Page de paiement',
  'walk.check.event': 'Événement signé reçu',
  'walk.event.expected': '{type}, signature valide',
  'walk.event.verified': '(signature valide)',
  'walk.event.unverified': '(signature invalide : {reason})',
  'walk.event.none': 'rien n’est arrivé',
  'walk.expectedGot': 'attendu {expected}, obtenu {got}',
  'walk.invoice.create':
    '3. Créer une facture : Bread (pain) 500 × 3, Cake (gâteau) 2 500 × 1, remise de 10 % (une Idempotency-Key rend les nouvelles tentatives sans risque).',
  'walk.invoice.publish': '4. La publier : elle devient payable, les montants sont figés.',
  'walk.invoice.checkout': '5. Ouvrir sa page de paiement, comme le ferait le client : {url}',
  'walk.invoice.formExpected': 'un formulaire de paiement',
  'walk.invoice.paying': '   Paiement depuis le {phone} sur la page…',
  'walk.invoice.paid': 'Facture payée sur sa page de paiement',
  'walk.invoice.unavailable': 'Cette sandbox ne décrit pas les opérations de facturation : les étapes de facture sont sautées.',
  'walk.col.step': 'ÉTAPE',
  'walk.col.expected': 'ATTENDU',
  'walk.col.got': 'OBTENU',
  'walk.col.ok': 'OK',
  'walk.done.ok': 'Chaque étape s’est comportée comme le prévoit la spécification. Ensuite :',
  'walk.done.failed': 'Certaines étapes ne se sont pas comportées comme le prévoit la spécification (marquées ✗ ci-dessus). Ensuite :',
  'walk.next.serve': 'svc sandbox serve                      # garder une sandbox locale en marche (profil « local »)',
  'walk.next.pay': 'svc --profile local pay create --amount 5000 --phone 670000001 --watch',
  'walk.next.invoice':
    'svc --profile local invoice create --customer-name "Boulangerie Awa" --due-date 31/12/2026 --item "Pain:500:3" --publish',
  'walk.next.listen': 'svc --profile local webhooks listen --forward-to http://localhost:3000/webhooks',
  'walk.next.login': 'svc login                              # votre propre clé sandbox ou live',

  // A person's terminal: failure codes in words
  'walk.pay.failureMeaning': '   Pour une personne : {sentence}',
  // walkthrough after a stopped `serve`
  'walk.target.stopped': 'La sandbox locale du profil « {profile} » sur {stopped} ne tourne pas : cette visite lance donc sa propre sandbox dans cette commande, sur {url} (sans clé, sans réseau).',
}
