/**
 * oclif asks wsl-utils whether it runs under WSL on every start-up (Config.load → getPlatform), and
 * importing it costs a few ms (child_process, fs/promises, four packages). is-wsl, behind it, can
 * answer yes only on Linux when the kernel release or /proc/version names Microsoft or a WSL path
 * exists; only then do we ask wsl-utils for its full answer (which also rules out containers).
 */
const MAYBE_WSL = `
function __svcMaybeWsl() {
  if (process.platform !== 'linux') return false;
  const fs = require('node:fs');
  if (require('node:os').release().toLowerCase().includes('microsoft')) return true;
  try {
    if (fs.readFileSync('/proc/version', 'utf8').toLowerCase().includes('microsoft')) return true;
  } catch {}
  return fs.existsSync('/proc/sys/fs/binfmt_misc/WSLInterop') || fs.existsSync('/run/WSL');
}
`

export default {
  file: '@oclif/core/lib/util/os.js',
  replace: [["(await import('wsl-utils')).isWsl", "(__svcMaybeWsl() && (await import('wsl-utils')).isWsl)"]],
  append: MAYBE_WSL,
}
