// Messages en français de `svc sandbox exec`, `svc sandbox serve --detach` et `svc sandbox stop`.
import type {exec as en} from '../en/exec.js'

export const exec: {[K in keyof typeof en]: string} = {
  'exec.noCommand': 'Donnez la commande à lancer après -- : `svc sandbox exec -- npm test` (syntaxe du shell : `svc sandbox exec -- sh -c "npm test && npm run e2e"`).',
  'exec.fixturesSameStep': 'L’étape « {step} » figure dans deux fichiers de fixtures ({first} et {second}) : leurs réponses partagent un seul objet dans SVC_FIXTURES_FILE, un nom d’étape ne peut donc y figurer qu’une fois. Renommez-en une.',
  'exec.sandbox': 'sandbox prête à {url} ({ms} ms) ; elle n’enregistre aucun profil et s’arrête avec la commande.',
  'exec.seeded': '{file} exécuté : {count} {count|étape|étapes} ({ms} ms).',
  'exec.forwarding': 'les événements de la sandbox sont transmis à {urls}, signés avec SVC_WEBHOOK_SECRET.',
  'exec.running': 'lancement de {command} ({ms} ms après le démarrage d’exec).',
  'exec.exited': 'la commande s’est terminée avec le code {code} ; arrêt de la sandbox.',
  'exec.abandoned': '{signal} avant le lancement de la commande : la sandbox est arrêtée, la commande n’a pas été lancée.',
  'exec.notFound': 'impossible de lancer {command} : introuvable (est-elle dans le PATH ?).',
  'exec.cannotRun': 'impossible de lancer {command} : {reason}.',
  'exec.journal': 'les requêtes auxquelles la sandbox a répondu, les plus récentes d’abord ({count}) :',
  'exec.journalFile': '{count} {count|requête|requêtes} auxquelles la sandbox a répondu, écrites dans {file}.',
  'exec.journalUnread': 'impossible de lire le journal des requêtes : {reason}',
  'exec.detached': 'Sandbox locale lancée en arrière-plan (PID {pid}), enregistrée comme profil « {profile} » ; son journal : {log}. Arrêtez-la avec `svc sandbox stop --profile {profile}`.',
  'exec.detachFailed': 'La sandbox lancée en arrière-plan s’est terminée avec le code {code} avant de répondre :',
  'exec.detachTimeout': 'La sandbox lancée en arrière-plan n’a pas répondu en {seconds} s ; elle a été arrêtée. Son journal : {log}',
  'exec.stopped': 'Sandbox locale arrêtée à {url} (PID {pid}){profiles}.',
  'exec.stoppedProfiles': ' ; {count|profil supprimé|profils supprimés} : {names}',
  'exec.stopNone': 'Aucune sandbox locale ne tourne pour ce répertoire de configuration.',
  'exec.stopNoAddress': 'Aucune sandbox locale en marche de ce répertoire de configuration n’est à {url} (donnée par {source}) : `svc sandbox list` montre celles qui tournent.',
  'exec.stopNoProfile': 'Aucune sandbox locale en marche ne possède le profil « {profile} » : `svc sandbox list` montre celles qui tournent.',
  'exec.stopNoCurrent': 'Quelle sandbox ? Donnez --profile NOM ou --all (`svc sandbox list` montre celles qui tournent).',
  'exec.listNoProfile': '(aucun : sandbox exec)',
  'exec.stopStuck': 'La sandbox à {url} (PID {pid}) ne s’est pas arrêtée dans les {seconds} s qui ont suivi SIGTERM.',
}
