import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // oclif's this.log goes through console.log; keep it on the real streams.
    disableConsoleIntercept: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: child-process CLI tests are CPU-bound.
    maxWorkers: 2,
  },
})
