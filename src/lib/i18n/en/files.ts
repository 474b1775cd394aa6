// Messages of file uploads (`svc files upload`, `--cover FILE`). Keys start with 'files.'.
export const files = {
  'files.notAFile': 'Invalid --{field} {path}: not a regular file.',
  'files.unreadable': 'Cannot read --{field} {path}: {reason}.',
  'files.notFound': 'No file {path} (--{field}): check the path.',
  'files.badExtension': 'Invalid --{field} {path}: "{ext}" is not an accepted image type; use a .png, .jpg/.jpeg or .webp file.',
  'files.tooLarge': 'Invalid --{field} {path}: {size}, more than the {max} allowed.',
  'files.empty': 'Invalid --{field} {path}: the file is empty.',
  'files.badMagic': 'Invalid --{field} {path}: its content is not {type} although its name says so.',
  'files.badAnswer': 'The upload-url answer has no upload_url or file_url.',
  'files.badUrl': 'Invalid --{field} "{url}": give an http(s) file_url from `svc files upload`, or a local image file.',
  'files.otherHost': 'Invalid --{field}: {host} is not the storage host ({hosts}); the service refuses a cover image on any other host.',
  'files.otherHostHint': 'Pass the image file itself (--cover ./logo.png) or upload it first with `svc files upload ./logo.png`.',
  'files.uploading': 'Uploading {file} ({size})…',
  'files.uploaded': 'Uploaded {file} ({size}).',
} as const
