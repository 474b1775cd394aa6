/**
 * What bin/run.cjs loads for every call that reaches oclif: its run, flush and handle. The build
 * (scripts/build.mjs, "one core chunk") puts @oclif/core and our base command's whole module graph
 * in the one chunk this file imports, so a command's start-up reads two or three files, not twenty.
 */
export {flush, handle, run} from '@oclif/core'
