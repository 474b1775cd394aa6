// The parts of @oclif/core that bin/run.js drives, built into dist/oclif-core.js so that the
// launcher and the commands share one bundled copy (see scripts/build.mjs).
export {Config, execute, flush, handle, run} from '@oclif/core'
