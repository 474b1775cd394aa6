// What our code imports as '@oclif/core' (scripts/build.mjs redirects it here): the same exports
// as @oclif/core's index, taken from its subpaths. The index also evaluates a Node-version check
// that requires all of semver (47 modules) at start-up; our engines field already says which Node.
// Not here: Constraints, ModuleLoader (not public subpaths); importing them fails the build.
import * as Args from '@oclif/core/args'
import * as Errors from '@oclif/core/errors'
import * as Flags from '@oclif/core/flags'
import * as Interfaces from '@oclif/core/interfaces'
import * as Parser from '@oclif/core/parser'

// @oclif/core's index warns when the current directory no longer exists; so do we.
try {
  process.cwd()
} catch (error) {
  if (error?.code === 'ENOENT') process.stderr.write('WARNING: current directory does not exist\n')
}

export {Args, Errors, Flags, Interfaces, Parser}
export {Command} from '@oclif/core/command'
export {Config, Plugin} from '@oclif/core/config'
export {execute} from '@oclif/core/execute'
export {flush} from '@oclif/core/flush'
export {handle} from '@oclif/core/handle'
export {CommandHelp, Help, HelpBase, loadHelpClass} from '@oclif/core/help'
export {getLogger} from '@oclif/core/logger'
export {Performance} from '@oclif/core/performance'
export {run} from '@oclif/core/run'
export {settings} from '@oclif/core/settings'
export {toConfiguredId, toStandardizedId} from '@oclif/core/util/ids'
export {ux} from '@oclif/core/ux'
