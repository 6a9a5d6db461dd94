// The Node host's store, SQLite against fake-indexeddb: `node bench/node-store.ts [--messages 100000,1000000]`.
// Each realm is built and measured in a child process of its own, so one's heap cannot hide in another's.
// The file store measures a copy of the realm file the scale curves use (bench/realm-cache.ts):
// built once, by whichever of the two runs first, and reused while its sources are unchanged.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { mib, settledHeap } from './heap.ts';

type Store = 'fake-indexeddb' | 'sqlite-memory' | 'sqlite';
interface Figures {
  store: Store;
  messages: number;
  userMessages: number;
  buildSeconds: number;
  heapMiB: number;
  rssMiB: number;
  sendPerSecond: number;
  bareSendPerSecond: number;
  pageP50: number;
  barePageP50: number;
  fileMiB?: number;
  restartMs?: number;
  restartRssMiB?: number;
}

const HEAP_TARGET_MIB = 150;
const RESTART_TARGET_MS = 3_000;
const script = fileURLToPath(import.meta.url);
const caseArg = process.argv.indexOf('--case');

if (caseArg !== -1) {
  const [store, count] = process.argv[caseArg + 1]!.split(':') as [Store, string];
  process.stdout.write(`${JSON.stringify(await measure(store, Number(count)))}\n`);
  process.exit(0);
} else {
  const countsArg = process.argv.indexOf('--messages');
  const counts = countsArg === -1 ? [100_000, 1_000_000] : process.argv[countsArg + 1]!.split(',').map(Number);
  // fake-indexeddb holds every row in the heap: past 100k messages it needs gigabytes.
  const small = counts.filter((n) => n <= 100_000);
  const cases = [...small.map((n) => `fake-indexeddb:${n}`), ...small.map((n) => `sqlite-memory:${n}`), ...counts.map((n) => `sqlite:${n}`)];
  const results: Figures[] = [];
  for (const c of cases) {
    console.error(`[node-store] ${c} ...`);
    const child = spawnSync(process.execPath, ['--expose-gc', script, '--case', c], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 });
    if (child.status !== 0) throw new Error(`${c} failed (${child.status})`);
    results.push(JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Figures);
  }
  printTable(results);
}

async function measure(store: Store, count: number): Promise<Figures> {
  const processStart = await settledHeap();
  const { measureSendRate } = await import('./send-rate.ts');
  const { measureTopicPage } = await import('./topic-page.ts');

  const dir = mkdtempSync(join(tmpdir(), 'node-store-bench-'));
  try {
    const { engine, realm, buildSeconds, persistent } =
      store === 'sqlite' ? await openCachedFile(count, join(dir, 'realm.sqlite')) : await buildInMemory(store, count);
    const send = await measureSendRate(engine, realm);
    const page = await measureTopicPage(engine, realm);
    const heap = await settledHeap();
    const figures: Figures = {
      store,
      messages: realm.messages,
      userMessages: realm.userMessages,
      buildSeconds,
      heapMiB: mib(heap - processStart),
      rssMiB: mib(process.memoryUsage().rss),
      sendPerSecond: send.engineRate,
      bareSendPerSecond: send.bareRate,
      pageP50: page.engine.p50,
      barePageP50: page.bare.p50,
    };
    engine.queues.close();
    if (persistent) {
      persistent.close();
      figures.fileMiB = mib(statSync(join(dir, 'realm.sqlite')).size + walSize(dir));
      Object.assign(figures, await restart(dir));
    }
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The cached realm file (built now if there is none), copied to `target` and opened as `serve --data` opens it. */
async function openCachedFile(count: number, target: string) {
  const { cachedRealm, openCopy } = await import('./realm-cache.ts');
  const cached = await cachedRealm(count);
  console.error(`[node-store] ${count} messages ${cached.built ? 'built' : 'reused from an earlier run'}`);
  const { engine, store } = await openCopy(cached, target);
  return { engine, realm: cached.realm, buildSeconds: cached.buildSeconds, persistent: store };
}

/** The realm built in this process, on fake-indexeddb or on SQLite in memory. */
async function buildInMemory(store: 'fake-indexeddb' | 'sqlite-memory', count: number) {
  const { IDBFactory, IDBKeyRange } = await import('fake-indexeddb');
  const { Engine } = await import('../src/engine/engine.ts');
  const { RealmDatabase } = await import('../src/engine/storage/database.ts');
  const { attachSqlite } = await import('../src/hosts/sqlite-persistence.ts');
  const { DatabaseSync } = await import('node:sqlite');
  const { buildBenchRealm } = await import('./realm-fixture.ts');
  const db = new RealmDatabase({ name: 'bench', indexedDB: new IDBFactory(), IDBKeyRange });
  if (store === 'sqlite-memory') await attachSqlite(db, new DatabaseSync(':memory:'));
  const engine = await Engine.create({ db });
  const buildStart = performance.now();
  const realm = await buildBenchRealm(engine, count);
  return { engine, realm, buildSeconds: (performance.now() - buildStart) / 1000, persistent: null };
}

function walSize(dir: string): number {
  try {
    return statSync(join(dir, 'realm.sqlite-wal')).size;
  } catch {
    return 0;
  }
}

/** `offline-realm serve --data DIR` from its start to its "listening" line, and its RSS then. */
async function restart(dir: string): Promise<{ restartMs: number; restartRssMiB: number }> {
  const cli = fileURLToPath(new URL('../src/hosts/offline-realm-cli.ts', import.meta.url));
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--data', dir], { stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    for await (const line of createInterface({ input: child.stdout })) {
      if (!line.startsWith('listening on')) continue;
      const restartMs = performance.now() - started;
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return { restartMs, restartRssMiB: rssKiB / 1024 };
    }
    throw new Error('serve exited before listening');
  } finally {
    child.kill('SIGKILL');
  }
}

function printTable(results: Figures[]): void {
  const f = (n: number | undefined, digits = 1) => (n === undefined ? '—' : n.toFixed(digits));
  console.log('| store | messages (flag rows) | build s | heap MiB | RSS MiB | send/s (bare) | topic page p50 ms (bare) | file MiB | restart to listening ms | RSS after restart MiB |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.store} | ${r.messages} (${r.userMessages}) | ${f(r.buildSeconds)} | ${f(r.heapMiB)} | ${f(r.rssMiB)} | ${f(r.sendPerSecond, 0)} (${f(r.bareSendPerSecond, 0)}) | ${f(r.pageP50, 2)} (${f(r.barePageP50, 2)}) | ${f(r.fileMiB)} | ${f(r.restartMs, 0)} | ${f(r.restartRssMiB)} |`,
    );
  }
  const sqlite = results.filter((r) => r.store === 'sqlite');
  const largest = sqlite.at(-1);
  if (largest) {
    console.log();
    console.log(
      `Targets at ${largest.messages} messages: heap <= ${HEAP_TARGET_MIB} MiB: ${largest.heapMiB <= HEAP_TARGET_MIB ? 'pass' : 'MISS'}; ` +
        `restart <= ${RESTART_TARGET_MS} ms: ${(largest.restartMs ?? Infinity) <= RESTART_TARGET_MS ? 'pass' : 'MISS'}.`,
    );
  }
}
