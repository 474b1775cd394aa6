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
      {extends: true, test: {name: 'fast', include: ['test/**/*.test.ts'], exclude: PROCESS_TESTS}},
      {extends: true, test: {name: 'process', include: PROCESS_TESTS}},
    ],
  },
})
