// Cost of the SQLite store against fake-indexeddb for bare Dexie writes, and its reopen: node bench/sqlite-persistence.ts
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { RealmDatabase } from '../src/engine/storage/database.ts';
import type { MessageRow } from '../src/engine/storage/rows.ts';
import { openPersistentDatabase } from '../src/hosts/sqlite-persistence.ts';

const SINGLE_ROW_TRANSACTIONS = 3_000;
const RELOAD_ROWS = 100_000;

function message(id: number): MessageRow {
  const topic = `topic ${id % 50}`;
  return {
    id,
    sender_id: 1 + (id % 20),
    type: 'stream',
    stream_id: 1 + (id % 10),
    topic,
    topic_key: topic,
    recipient_id: 1 + (id % 10),
    content: `message number ${id} with some ordinary words in it`,
    rendered_content: `<p>message number ${id} with some ordinary words in it</p>`,
    timestamp: 1_700_000_000 + id,
    client: 'bench',
    is_me_message: false,
    has_link: false,
    has_image: false,
    has_attachment: false,
    words: ['message', 'number', String(id), 'with', 'some', 'ordinary', 'words', 'in', 'it'],
  };
}

function freshDatabase(): RealmDatabase {
  return new RealmDatabase({ name: 'bench', indexedDB: new IDBFactory(), IDBKeyRange });
}

async function singleRowTransactionsPerSecond(db: RealmDatabase): Promise<number> {
  const start = performance.now();
  for (let id = 1; id <= SINGLE_ROW_TRANSACTIONS; id++) await db.messages.put(message(id));
  return SINGLE_ROW_TRANSACTIONS / ((performance.now() - start) / 1000);
}

const dir = mkdtempSync(join(tmpdir(), 'realm-bench-'));
const file = join(dir, 'realm.sqlite');
try {
  const memoryDb = freshDatabase();
  await memoryDb.open();
  const memoryRate = await singleRowTransactionsPerSecond(memoryDb);
  memoryDb.close();

  const persistentDb = freshDatabase();
  const store = await openPersistentDatabase(persistentDb, file);
  const persistentRate = await singleRowTransactionsPerSecond(persistentDb);
  for (let id = 1; id <= RELOAD_ROWS; id += 10_000) {
    await persistentDb.messages.bulkPut(Array.from({ length: 10_000 }, (_, i) => message(id + i)));
  }
  store.close();

  const heapBefore = process.memoryUsage().heapUsed;
  const reloadStart = performance.now();
  const reloaded = await openPersistentDatabase(freshDatabase(), file);
  const reloadMs = performance.now() - reloadStart;
  const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
  const rows = reloaded.stats().messages;
  reloaded.close();

  console.table({
    'single-row transactions/s, memory only': Math.round(memoryRate),
    'single-row transactions/s, persistent': Math.round(persistentRate),
    [`reopen with ${rows} rows stored, ms`]: Math.round(reloadMs),
    'reopen heap growth, MiB': Math.round(heapGrowth / 2 ** 20),
    'SQLite file, MiB': Math.round(statSync(file).size / 2 ** 20),
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
