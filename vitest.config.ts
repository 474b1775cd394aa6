import {defineConfig} from 'vitest/config'

import {PROCESS_TESTS} from './test/projects.js'

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
