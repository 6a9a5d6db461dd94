// `npm run bench -- --only=topic-page,send`: measures only the named figures (a shared machine
// need not run the whole bench to check one change). Without it, everything is measured.

/** The figures `--only` can name, in both tables (Node and browser). */
export const BENCH_PARTS = ['send', 'topic-page', 'long-poll', 'heap', 'small-get', 'other-tab', 'demo-import', 'app', 'sync', 'sync-latency', 'http', 'scale'] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];

/** The parts `--only=` names, or null for all of them; an unknown name ends the run with the list. */
export function onlyParts(argv: readonly string[]): ReadonlySet<BenchPart> | null {
  const flag = argv.find((arg) => arg.startsWith('--only='));
  if (!flag) return null;
  const names = flag.slice('--only='.length).split(',').filter(Boolean);
  const unknown = names.filter((name) => !(BENCH_PARTS as readonly string[]).includes(name));
  if (unknown.length > 0 || names.length === 0) {
    console.error(`--only takes a comma-separated list of: ${BENCH_PARTS.join(', ')} (got "${flag.slice(7)}")`);
    process.exit(2);
  }
  return new Set(names as BenchPart[]);
}

/** The parts measured on the Node table's 100k-message realm (bench/suite.ts). */
export const SUITE_PARTS: readonly BenchPart[] = ['send', 'topic-page', 'long-poll', 'heap'];

/** The parts measured only in Node, each with a table of its own: no browser run for them alone. */
export const NODE_ONLY_PARTS: readonly BenchPart[] = ['sync', 'sync-latency', 'http'];

/** Whether a part is measured in this run. */
export const measures = (parts: ReadonlySet<BenchPart> | null, part: BenchPart): boolean => parts === null || parts.has(part);
