/**
 * Source patches to bundled files, one file each in this folder, keyed by path under
 * node_modules/: each `[find, replace]` must match exactly once, or the build fails (a new version
 * must be looked at, not silently patched wrong). Each file says why its patch exists.
 */
import oclif_config_plugin from './oclif-config-plugin.mjs'
import oclif_util_fs from './oclif-util-fs.mjs'
import oclif_screen from './oclif-screen.mjs'
import oclif_util_os from './oclif-util-os.mjs'
import oclif_logger from './oclif-logger.mjs'
import oclif_main from './oclif-main.mjs'
import oclif_command from './oclif-command.mjs'
import oclif_flush from './oclif-flush.mjs'
import oclif_ux from './oclif-ux.mjs'
import oclif_help_util from './oclif-help-util.mjs'
import string_width from './string-width.mjs'

export const BUNDLE_PATCHES = Object.fromEntries(
  [oclif_config_plugin, oclif_util_fs, oclif_screen, oclif_util_os, oclif_logger, oclif_main, oclif_command, oclif_flush, oclif_ux, oclif_help_util, string_width].map(({file, ...patch}) => [file, patch]),
)
