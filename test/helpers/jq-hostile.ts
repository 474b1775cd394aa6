/**
 * The hostile `--jq` expressions the limits' tests run (test/commands/jq-limits.test.ts in-process,
 * test/commands/jq-bounds.test.ts as processes): each loops, recurses or grows without end, and
 * must end on a limit (time, memory or output), never abort Node, and answer a signal at once.
 */
export const HOSTILE = [
  'def f: f; f',
  'last(range(1e9))',
  '[limit(100000000; repeat(1))] | length',
  'reduce range(1e12) as $i (0; .+1)',
  'until(false; .)',
  'repeat(.)',
  '[repeat(1)]',
  '[range(1e9)]',
  'def f: [f]; f',
]

/** `sandbox numbers` prints the spec's test numbers without a sandbox: the filter is all there is to run. */
export const JQ_ARGS = ['sandbox', 'numbers']
