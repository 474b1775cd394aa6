/**
 * The suite's two vitest projects (vitest.config.ts): `process`, the tests whose subject is a
 * process itself (signals, terminals, start-up and the launcher, the binary, the package install,
 * kill and durability runs, several servers at once, a sandbox or protocol in a process of its
 * own); `fast`, every other file, in-process by default. `npm test` runs both; `npm run test:fast`
 * the fast one. A file that only has a test or two of a process stays in `fast`.
 * test/structure/test-projects.test.ts checks that every entry names a file that exists.
 */
export const PROCESS_TESTS = [
  'test/binary/**/*.test.ts',
  'test/package/**/*.test.ts',
  'test/commands/autocomplete.test.ts',
  'test/commands/file-modes.test.ts',
  'test/commands/invoice-guided-form.test.ts',
  'test/commands/invoice-import-memory.test.ts',
  'test/commands/invoice-numbers.test.ts',
  'test/commands/jq-bounds.test.ts',
  'test/commands/local-environments.test.ts',
  'test/commands/mcp-protocol.test.ts',
  'test/commands/names-before-ids.test.ts',
  'test/commands/sandbox-binding.test.ts',
  'test/commands/sandbox-disk.test.ts',
  'test/commands/sandbox-exec.test.ts',
  'test/commands/sandbox-instances.test.ts',
  'test/commands/sandbox-storage.test.ts',
  'test/commands/signals.test.ts',
  'test/commands/webhooks-listen-restarts.test.ts',
  'test/contract/prism.test.ts',
  'test/docs/ci-recipes.test.ts',
  'test/docs/recipes.test.ts',
  'test/lib/config/process-owner.test.ts',
  'test/lib/io/process-streams.test.ts',
  'test/sandbox/commit-record-crash.test.ts',
  'test/sandbox/durability.test.ts',
  'test/sandbox/fuzz.test.ts',
  'test/sandbox/interrupted-checkpoint.test.ts',
  'test/sandbox/journal-flood.test.ts',
  'test/sandbox/lost-wal.test.ts',
  'test/sandbox/snapshot-leftovers.test.ts',
  'test/startup/compile-cache.test.ts',
  'test/startup/structure.test.ts',
]
