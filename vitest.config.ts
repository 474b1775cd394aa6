import {accessSync, constants, statfsSync} from 'node:fs'

import {defineConfig} from 'vitest/config'

import {PROCESS_TESTS} from './test/projects.js'

/**
 * The suite's temporary files (config directories, data files, unpacked copies, the package
 * installed from its tarball) go to a memory-backed file system when the machine has one with room
 * (Linux's /dev/shm; a container may keep it at 64 MB): creating and removing thousands of files
 * there costs a fraction of the system time a disk does. A TMPDIR already set is kept. Nothing the
 * suite proves depends on the disk: a process killed leaves what it wrote in the page cache either
 * way, and the full-disk tests mount their own small file system or set a file-size limit.
 */
function memoryBackedTmp(): string | undefined {
  try {
    accessSync('/dev/shm', constants.W_OK)
    const {bavail, bsize} = statfsSync('/dev/shm')
    return bavail * bsize >= 4 * 1024 ** 3 ? '/dev/shm' : undefined
  } catch {
    return undefined
  }
}
const tmp = process.env.TMPDIR ? undefined : memoryBackedTmp()
if (tmp) process.env.TMPDIR = tmp

export default defineConfig({
  test: {
    // oclif's this.log goes through console.log; keep it on the real streams.
    disableConsoleIntercept: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: child-process CLI tests are CPU-bound.
    maxWorkers: 2,
    // Two projects (test/projects.ts): `vitest run` runs both, `--project fast` the in-process one.
    projects: [
      // The in-process files share their workers' modules (no re-import per file: about 40 s of CPU
      // on the 2-core machine); every file still starts its own sandboxes and config directories.
      {extends: true, test: {name: 'fast', include: ['test/**/*.test.ts'], exclude: PROCESS_TESTS, isolate: false}},
      {extends: true, test: {name: 'process', include: PROCESS_TESTS}},
    ],
  },
})
