// Messages en français des envois de fichiers (`svc files upload`, `--cover FICHIER`).
import type {files as en} from '../en/files.js'

export const files: {[K in keyof typeof en]: string} = {
  'files.notAFile': '--{field} {path} invalide : ce n’est pas un fichier ordinaire.',
  'files.unreadable': 'Impossible de lire --{field} {path} : {reason}.',
  'files.notFound': 'Fichier {path} introuvable (--{field}) : vérifiez le chemin.',
  'files.badExtension': '--{field} {path} invalide : « {ext} » n’est pas un type d’image accepté ; utilisez un fichier .png, .jpg/.jpeg ou .webp.',
  'files.tooLarge': '--{field} {path} invalide : {size}, au-delà des {max} autorisés.',
  'files.empty': '--{field} {path} invalide : le fichier est vide.',
  'files.badMagic': '--{field} {path} invalide : son contenu n’est pas du {type}, contrairement à ce qu’indique son nom.',
  'files.badAnswer': 'La réponse de upload-url ne contient ni upload_url ni file_url.',
  'files.badUrl': '--{field} « {url} » invalide : donnez un file_url http(s) obtenu avec `svc files upload`, ou un fichier image local.',
  'files.otherHost': '--{field} invalide : {host} n’est pas l’hôte de stockage ({hosts}) ; le service refuse une image de couverture hébergée ailleurs.',
  'files.otherHostHint': 'Passez directement le fichier image (--cover ./logo.png) ou envoyez-le d’abord avec `svc files upload ./logo.png`.',
  'files.uploading': 'Envoi de {file} ({size})…',
  'files.uploaded': '{file} envoyé ({size}).',
}
