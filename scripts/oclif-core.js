// What our code imports as '@oclif/core' (scripts/build.mjs redirects it here), taken from its
// subpaths. Each export here is evaluated at every start-up (esbuild turns `export … from` a
// CommonJS module into a require at load), so this lists only what src/ uses, not the whole index:
// the index also loads help, ux, execute, the logger and a semver-based Node check (47 modules).
// A new import from '@oclif/core' fails the build ("No matching export") until it is added here.
import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import * as Interfaces from '@oclif/core/interfaces'

// @oclif/core's index warns when the current directory no longer exists; so do we.
try {
  process.cwd()
} catch (error) {
  if (error?.code === 'ENOENT') process.stderr.write('WARNING: current directory does not exist\n')
}

export {Args, Flags, Interfaces}
export {Command} from '@oclif/core/command'
export {flush} from '@oclif/core/flush'
export {handle} from '@oclif/core/handle'
export {run} from '@oclif/core/run'
