// Scale curves (issue 13): send, topic page, `/register` and the unread data at 10k, 100k and 1M
// messages, in Node on the Node host's store (SQLite on a file, as `offline-realm serve --data`).
// Each realm is built once and kept between runs (bench/realm-cache.ts); each size is measured on
// a copy of it. `node bench/run.ts --only=scale --no-browser` runs this part alone;
// `--scale-sizes=10000,100000` picks the sizes; `--rebuild-realms` builds them again.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mib, settledHeap } from './heap.ts';
import { cachedRealm, openCopy } from './realm-cache.ts';
import { measureScaleFigures, SAMPLES, type ScaleFigures, type Timing } from './scale-figures.ts';
import { StorageCallCounter } from './storage-calls.ts';
import { fixed, markdownTable, type Row } from './table.ts';

const DEFAULT_SIZES = [10_000, 100_000, 1_000_000];
const MIN_SIZE = 5_000;
const MAX_SIZE = 10_000_000;
/**
 * A figure's p50 (without GC pauses) may reach this multiple of the smallest size's before it
 * counts as growing: work that follows the realm would be 10–100x over these sizes, while a
 * shared machine moves a single p50 up to 2x between runs. Rows read are the exact check.
 */
const TIME_GROWTH_TARGET = 3;
/** An unread message in `/register` is read as its flags row and its message row. */
const UNREAD_ROWS_PER_MESSAGE = 2;

/** Rows `/register` reads for the unread data it returns. */
const unreadRows = (r: SizeResult): number => UNREAD_ROWS_PER_MESSAGE * r.figures.unreadCount;
/** The recent-conversations window: the viewer's newest direct messages, up to 1,000 as upstream (it follows the realm until it is full). */
const windowRows = (r: SizeResult): number => r.figures.recentWindowRows;
const registerRows = (r: SizeResult): number => unreadRows(r) + windowRows(r);

interface SizeResult {
  messages: number;
  userMessages: number;
  buildSeconds: number;
  built: boolean;
  openMs: number;
  fileMib: number;
  heapMib: number;
  load: number;
  figures: ScaleFigures;
}

export async function runScaleBench(argv: readonly string[]): Promise<void> {
  const started = performance.now();
  const rebuild = argv.includes('--rebuild-realms');
  const results: SizeResult[] = [];
  for (const size of sizesFrom(argv)) {
    results.push(await measureSize(size, rebuild));
    log(`${size} messages measured`);
  }
  console.log();
  console.log(markdownTable(scaleRows(results)));
  console.log();
  console.log(
    `Store: SQLite on a file, opened as \`serve --data\` opens it (WAL, synchronous = FULL), one copy per size. ` +
      `Samples per size: ${SAMPLES.send} sends, ${SAMPLES.page} pages, ${SAMPLES.register} of each /register, after 5 warm-up calls; ` +
      'p50 ms from calling `handle()` to the body read. The newest 2,000 messages are unread at every size. ' +
      `Scale part took ${fixed((performance.now() - started) / 1000, 0)} s.`,
  );
}

/** `--scale-sizes=10000,100000`: whole message counts from 5,000 (the big topic then holds a page of 100); else 10k, 100k and 1M. */
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

/** A copy of the realm of `size` messages, opened, measured, then closed and deleted. */
async function measureSize(size: number, rebuild: boolean): Promise<SizeResult> {
  const cached = await cachedRealm(size, { rebuild });
  log(`${size} messages ${cached.built ? 'built' : 'reused from an earlier run (built'} in ${fixed(cached.buildSeconds, 1)} s${cached.built ? '' : ')'}`);
  const dir = mkdtempSync(join(tmpdir(), 'scale-bench-'));
  try {
    const before = await settledHeap();
    const counter = new StorageCallCounter();
    const { engine, store, fileBytes, copyMs, openMs } = await openCopy(cached, join(dir, 'realm.sqlite'), (db) => db.use(counter.middleware));
    log(`${size} messages copied in ${fixed(copyMs / 1000, 1)} s`);
    try {
      const load = loadavg()[0]!;
      const figures = await measureScaleFigures(engine, cached.realm, counter);
      const heapMib = mib((await settledHeap()) - before);
      engine.queues.close();
      engine.scheduler.stop();
      const { messages, userMessages } = cached.realm;
      return { messages, userMessages, buildSeconds: cached.buildSeconds, built: cached.built, openMs, fileMib: fileBytes / 2 ** 20, heapMib, load, figures };
    } finally {
      store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each size after the first beside the first (its baseline, from the same run). */
function scaleRows(results: readonly SizeResult[]): Row[] {
  const first = results[0]!;
  const rest = results.slice(1);
  const at = (r: SizeResult) => `at ${sizeName(r.messages)} messages`;
  const baseSize = sizeName(first.messages);
  const rows: Row[] = [];
  // Rows read may follow only what is set apart (`setApart`: the unread data returned, the
  // recent-conversations window); nothing else may grow. Time is held to its target only where
  // nothing is set apart, the window's reading taking time as it grows.
  const timings: Array<[string, (r: SizeResult) => Timing, ((r: SizeResult) => number) | null, string]> = [
    ['send through `handle()` (channel of 10 subscribers)', (r) => r.figures.send, null, ''],
    ['`GET /messages` newest 100 of the big topic', (r) => r.figures.page, null, ''],
    ["the page's bare index query alone (newest 100 of the topic's index)", (r) => r.figures.barePage, null, ''],
    ['`POST /register`, every event type', (r) => r.figures.register, registerRows, 'the unread data and the recent-conversations window'],
    ['unread data alone (`/register` fetching `message`, `update_message_flags`)', (r) => r.figures.unread, unreadRows, 'the unread data'],
    ['recent conversations alone (`/register` fetching `recent_private_conversations`)', (r) => r.figures.recent, windowRows, 'the recent-conversations window'],
  ];
  for (const [figure, timing, setApart, apart] of timings) {
    const bounded = (r: SizeResult) => timing(r).storage.rowsRead - (setApart?.(r) ?? 0);
    for (const r of results.length === 1 ? results : rest) {
      const t = timing(r);
      const base = timing(first);
      const growth = t.p50WithoutGc / base.p50WithoutGc;
      rows.push({
        figure: `${figure} ${at(r)}: p50 ms (without GC pauses); storage calls, rows read`,
        measured: `${fixed(t.p50)} (${fixed(t.p50WithoutGc)}); ${t.storage.calls} calls, ${t.storage.rowsRead} rows`,
        baseline: `${fixed(base.p50)} (${fixed(base.p50WithoutGc)}); ${base.storage.calls} calls, ${base.storage.rowsRead} rows ${at(first)}`,
        ratio: `${fixed(growth)}x (rows ${fixed(t.storage.rowsRead / base.storage.rowsRead)}x)`,
        target: setApart
          ? `rows read beyond ${apart} <= ${baseSize}'s`
          : `rows read <= ${baseSize}'s; p50 without GC <= ${TIME_GROWTH_TARGET}x ${baseSize}'s`,
        pass: bounded(r) <= bounded(first) && (setApart !== null || growth <= TIME_GROWTH_TARGET),
      });
    }
  }
  const facts: Array<[string, (r: SizeResult) => number, number]> = [
    ["the viewer's unread messages in `/register`", (r) => r.figures.unreadCount, 0],
    ['`recent_private_conversations` entries', (r) => r.figures.recentConversations, 0],
    ["the viewer's newest direct messages that section walks (flags rows, up to 1,000 as upstream)", (r) => r.figures.recentWindowRows, 0],
    ['`/register` body, KiB', (r) => r.figures.registerBytes / 1024, 1],
    ['`user_messages` rows', (r) => r.userMessages, 0],
    ['database file as opened, MiB', (r) => r.fileMib, 0],
    ['open the copied file (Dexie on SQLite) and start the engine, ms', (r) => r.openMs, 0],
    ['heap held after measuring (settled, minus before opening), MiB', (r) => r.heapMib, 1],
    ['realm build (bulk rows through Dexie, no fsync; when it was built), s', (r) => r.buildSeconds, 1],
    ['load average when measuring began', (r) => r.load, 1],
  ];
  for (const [figure, value, digits] of facts) {
    for (const r of rest) {
      rows.push({
        figure: `${figure} ${at(r)}`,
        measured: fixed(value(r), digits),
        baseline: `${fixed(value(first), digits)} ${at(first)}`,
        ratio: `${fixed(value(r) / value(first))}x`,
        target: '—',
        pass: null,
      });
    }
  }
  return rows;
}

const sizeName = (n: number): string => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1_000 ? `${n / 1_000}k` : String(n));

function log(line: string): void {
  console.log(`[bench] ${line}`);
}
