// Builds the 100k-message realm, measures each figure beside its bare baseline, prints the table.
import { cpus, totalmem } from 'node:os';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { Engine } from '../src/engine/engine.ts';
import { RealmDatabase } from '../src/engine/storage/database.ts';
import { measureEventLatency } from './event-latency.ts';
import { mib, settledHeap } from './heap.ts';
import { buildBenchRealm } from './realm-fixture.ts';
import { measureSendRate } from './send-rate.ts';
import { fixed, markdownTable, type Row } from './table.ts';
import { type BenchPart, measures } from './parts.ts';
import { measureTopicPage } from './topic-page.ts';

const SEND_RATE_TARGET = 0.5;
const PAGE_RATIO_TARGET = 1.5;
const LATENCY_TARGET_MS = 2;
const ENGINE_HEAP_TARGET_MIB = 50;

/** `parts`: the figures to measure (bench/parts.ts), null for all. */
export async function runSuite(processStart: number, parts: ReadonlySet<BenchPart> | null): Promise<void> {
  const started = performance.now();
  const codeLoaded = await settledHeap();
  const db = new RealmDatabase({ name: 'bench', indexedDB: new IDBFactory(), IDBKeyRange });
  let engine: Engine | null = await Engine.create({ db });

  const buildStart = performance.now();
  const realm = await buildBenchRealm(engine);
  const buildSeconds = (performance.now() - buildStart) / 1000;
  log(`realm built in ${fixed(buildSeconds, 1)} s: ${realm.messages} messages, ${realm.userMessages} user_messages rows`);

  const rows: Row[] = [];
  if (measures(parts, 'send')) {
    const send = await measureSendRate(engine, realm);
    log(`send rate measured (${send.sends} sends each side)`);
    const sendRatio = send.engineRate / send.bareRate;
    rows.push({
      figure: `send through \`handle()\` (channel of ${send.recipients} subscribers), messages/s`,
      measured: `${fixed(send.engineRate, 0)} (GC ${percent(send.engineGcShare)})`,
      baseline: `${fixed(send.bareRate, 0)} (bare Dexie transaction: message + ${send.recipients} flag rows; GC ${percent(send.bareGcShare)})`,
      ratio: `${fixed(sendRatio * 100, 0)}%`,
      target: `>= ${SEND_RATE_TARGET * 100}% of baseline`,
      pass: sendRatio >= SEND_RATE_TARGET,
    });
    rows.push({
      figure: `a send's ${send.recipients} flag rows written bare (fresh database), user_messages indexes now, p50 ms (a whole send: ${fixed(send.engineP50)})`,
      measured: fixed(send.flagRowsNow, 3),
      baseline: `${fixed(send.flagRowsBefore, 3)} (the same rows without the place columns and their three indexes)`,
      ratio: `+${fixed(send.flagRowsNow - send.flagRowsBefore, 3)} ms`,
      target: '—',
      pass: null,
    });
  }
  if (measures(parts, 'topic-page')) {
    const page = await measureTopicPage(engine, realm);
    log(`topic page measured (${page.samples} samples each side)`);
    const pageRatio = page.engine.p50 / page.floor.p50;
    rows.push(
      {
        figure: `\`GET /messages\` newest 100 of a ${realm.hot.topicMessages}-message topic, p50 ms`,
        measured: fixed(page.engine.p50),
        baseline: `${fixed(page.floor.p50)} (floor: the same 100 rows by the bare index query and the viewer's flag rows as one range of the place index, read together in one transaction)`,
        ratio: `${fixed(pageRatio)}x`,
        target: `p50 <= ${PAGE_RATIO_TARGET}x baseline`,
        pass: pageRatio <= PAGE_RATIO_TARGET,
      },
      {
        figure: `\`GET /messages\` newest 100 of the topic, p50 ms (${fixed(page.engine.p50)}), over the bare index query alone (no flags)`,
        measured: fixed(page.engine.p50),
        baseline: `${fixed(page.bare.p50)} (bare index query, same 100 rows; the floor is ${fixed(page.floor.p50 / page.bare.p50)}x of it)`,
        ratio: `${fixed(page.engine.p50 / page.bare.p50)}x`,
        target: '—',
        pass: null,
      },
      {
        figure: 'the bare index query, then the viewer\'s flag rows of its messages key by key (`bulkGet`, one transaction: how pages read flags before), p50 ms',
        measured: fixed(page.bareWithFlagKeys.p50),
        baseline: `${fixed(page.floor.p50)} (floor: flags as one range)`,
        ratio: `${fixed(page.bareWithFlagKeys.p50 / page.floor.p50)}x`,
        target: '—',
        pass: null,
      },
      {
        figure: '`GET /messages` newest 100 of the topic, p99 ms',
        measured: `${fixed(page.engine.p99)} (GC ${percent(page.engineGcShare)} of all samples' time)`,
        baseline: `${fixed(page.floor.p99)} (floor; GC ${percent(page.floorGcShare)})`,
        ratio: `${fixed(page.engine.p99 / page.floor.p99)}x`,
        target: '—',
        pass: null,
      },
    );
  }
  // The heap figures are taken with the long-poll figure's queues open.
  let openQueues = 0;
  if (measures(parts, 'long-poll') || measures(parts, 'heap')) {
    const latency = await measureEventLatency(engine, realm);
    openQueues = latency.queues;
    log(`long-poll latency measured (${latency.samples} sends, ${latency.queues} queues)`);
    log(`POST /register p50 ${fixed(latency.register.p50)} ms`);
    if (measures(parts, 'long-poll')) {
      rows.push({
        figure: `send -> waiting long-poll returns, ${latency.queues} open queues, p50 ms over the send`,
        measured: `${fixed(latency.overSend.p50)} (p99 ${fixed(latency.overSend.p99)}; answered ${fixed(latency.fromSendStart.p50)} after the send started)`,
        baseline: `${fixed(latency.send.p50)} (the send itself, p50)`,
        ratio: '—',
        target: `<= ${LATENCY_TARGET_MS} ms`,
        pass: latency.overSend.p50 <= LATENCY_TARGET_MS,
      });
    }
  }
  if (measures(parts, 'heap')) {
    // The engine with warm caches and its queues open, then the same rows with the engine gone.
    const withEngine = await settledHeap();
    engine.queues.close();
    engine = null;
    const bareDatabase = await settledHeap();
    const engineOwn = mib(withEngine - bareDatabase);
    const storage = mib(bareDatabase - codeLoaded);
    rows.push(
      {
        figure: `heap used by the engine itself (caches, ${openQueues} queues), MiB`,
        measured: fixed(engineOwn, 1),
        baseline: `${fixed(storage, 1)} (bare Dexie db with the same rows, in fake-indexeddb)`,
        ratio: `${fixed((engineOwn / storage) * 100, 1)}%`,
        target: `<= ${ENGINE_HEAP_TARGET_MIB} MiB`,
        pass: engineOwn <= ENGINE_HEAP_TARGET_MIB,
      },
      {
        figure: 'heap used by the whole process with 100k messages stored, MiB',
        measured: fixed(mib(withEngine - processStart), 1),
        baseline: `${fixed(mib(codeLoaded - processStart), 1)} (engine code and static tables loaded, no realm)`,
        ratio: '—',
        target: '— (storage is in memory in Node)',
        pass: null,
      },
    );
  }

  const cpu = cpus();
  console.log();
  console.log(markdownTable(rows));
  console.log();
  console.log(`Realm: ${realm.messages} messages, ${realm.userMessages} user_messages rows, ${realm.users.length} users.`);
  console.log(
    `Machine: ${cpu.length} x ${cpu[0]?.model ?? 'unknown CPU'}, ${fixed(totalmem() / 2 ** 30, 1)} GiB, ` +
      `Node ${process.version}, ${process.platform}/${process.arch}. Run took ${fixed((performance.now() - started) / 1000, 0)} s.`,
  );
  db.close();
}

const percent = (share: number): string => `${fixed(share * 100, 0)}%`;

function log(line: string): void {
  console.log(`[bench] ${line}`);
}
