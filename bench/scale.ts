// Scale curves (issue 13): send, topic page, `/register` and the unread data at each realm size,
// in Node (fake-indexeddb). `node bench/run.ts --only=scale --no-browser` runs them alone;
// `--scale-sizes=10000,100000,1000000` picks the sizes (1M needs about 6 GiB of heap here:
// `node --max-old-space-size=8192 bench/run.ts ...`).
import { loadavg } from 'node:os';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Engine } from '../src/engine/engine.ts';
import { RealmDatabase } from '../src/engine/storage/database.ts';
import { mib, settledHeap } from './heap.ts';
import { buildBenchRealm } from './realm-fixture.ts';
import { measureScaleFigures, SAMPLES, type ScaleFigures, type Timing } from './scale-figures.ts';
import { fixed } from './table.ts';

const DEFAULT_SIZES = [10_000, 100_000];
const MIN_SIZE = 5_000;
const MAX_SIZE = 10_000_000;

interface SizeResult {
  messages: number;
  userMessages: number;
  buildSeconds: number;
  heapMib: number;
  load: number;
  figures: ScaleFigures;
}

export async function runScaleBench(argv: readonly string[]): Promise<void> {
  const results: SizeResult[] = [];
  for (const size of sizesFrom(argv)) {
    results.push(await measureSize(size));
    log(`${size} messages measured`);
  }
  console.log();
  console.log(scaleTable(results));
  console.log();
  console.log(
    `Samples per size: ${SAMPLES.send} sends, ${SAMPLES.page} pages, ${SAMPLES.register} of each /register, after 5 warm-up calls; ` +
      'p50 ms from calling `handle()` to the body read. The newest 2,000 messages are unread at every size.',
  );
}

/** `--scale-sizes=10000,100000`: whole message counts from 5,000 (the big topic then holds a page of 100); else 10k and 100k. */
function sizesFrom(argv: readonly string[]): number[] {
  const flag = argv.find((arg) => arg.startsWith('--scale-sizes='));
  if (!flag) return DEFAULT_SIZES;
  const sizes = flag.slice('--scale-sizes='.length).split(',').map(Number);
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < MIN_SIZE || n > MAX_SIZE)) {
    console.error(`--scale-sizes takes message counts from ${MIN_SIZE} to ${MAX_SIZE}, comma-separated (got "${flag}")`);
    process.exit(2);
  }
  return sizes;
}

/** A realm of `size` messages in a database of its own, measured, then dropped. */
async function measureSize(size: number): Promise<SizeResult> {
  const before = await settledHeap();
  const db = new RealmDatabase({ name: `scale-${size}`, indexedDB: new IDBFactory(), IDBKeyRange });
  try {
    const engine = await Engine.create({ db });
    const buildStart = performance.now();
    const realm = await buildBenchRealm(engine, size);
    const buildSeconds = (performance.now() - buildStart) / 1000;
    const heapMib = mib((await settledHeap()) - before);
    log(`${size} messages built in ${fixed(buildSeconds, 1)} s (${fixed(heapMib, 0)} MiB of heap)`);
    const load = loadavg()[0]!;
    const figures = await measureScaleFigures(engine, realm);
    engine.queues.close();
    return { messages: size, userMessages: realm.userMessages, buildSeconds, heapMib, load, figures };
  } finally {
    db.close();
  }
}

function scaleTable(results: readonly SizeResult[]): string {
  const first = results[0];
  const last = results[results.length - 1];
  const header = ['figure', ...results.map((r) => `${sizeName(r.messages)} messages`), `${sizeName(last.messages)} / ${sizeName(first.messages)}`];
  const lines = [header, header.map(() => '---')];
  const timings: Array<[string, (r: SizeResult) => Timing]> = [
    ['send through `handle()` (channel of 10 subscribers), p50 ms (without GC pauses)', (r) => r.figures.send],
    ['`GET /messages` newest 100 of the big topic, p50 ms (without GC pauses)', (r) => r.figures.page],
    ["the page's bare index query alone (newest 100 of the topic's index), p50 ms (without GC pauses)", (r) => r.figures.barePage],
    ['`POST /register`, every event type, p50 ms (without GC pauses)', (r) => r.figures.register],
    ['unread data alone (`/register` fetching `message`, `update_message_flags`), p50 ms (without GC pauses)', (r) => r.figures.unread],
  ];
  for (const [figure, timing] of timings) {
    const growth = `${fixed(timing(last).p50 / timing(first).p50)}x (${fixed(timing(last).p50WithoutGc / timing(first).p50WithoutGc)}x)`;
    lines.push([figure, ...results.map((r) => `${fixed(timing(r).p50)} (${fixed(timing(r).p50WithoutGc)})`), growth]);
  }
  for (const [figure, timing] of timings) {
    const requests = `IndexedDB requests per call: ${figure.slice(0, figure.indexOf(', p50'))}`;
    lines.push([requests, ...results.map((r) => String(timing(r).requests)), `${fixed(timing(last).requests / timing(first).requests)}x`]);
  }
  const counts: Array<[string, (r: SizeResult) => number, number]> = [
    ["the viewer's unread messages in `/register`", (r) => r.figures.unreadCount, 0],
    ['`recent_private_conversations` entries', (r) => r.figures.recentConversations, 0],
    ['`/register` body, KiB', (r) => r.figures.registerBytes / 1024, 1],
    ['realm build (bulk rows, fixture), s', (r) => r.buildSeconds, 1],
    ['heap held by the realm (fake-indexeddb), MiB', (r) => r.heapMib, 0],
    ['`user_messages` rows', (r) => r.userMessages, 0],
  ];
  for (const [figure, value, digits] of counts) {
    lines.push([figure, ...results.map((r) => fixed(value(r), digits)), `${fixed(value(last) / value(first))}x`]);
  }
  lines.push(['load average when measuring began', ...results.map((r) => fixed(r.load, 1)), '—']);
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

const sizeName = (n: number): string => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1_000 ? `${n / 1_000}k` : String(n));

function log(line: string): void {
  console.log(`[bench] ${line}`);
}
