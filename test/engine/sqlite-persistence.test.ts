import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RealmDatabase } from '../../src/engine/storage/database.ts';
import { openPersistentDatabase, type PersistentStore } from '../../src/hosts/sqlite-persistence.ts';
import { numberedMessage, unreadFlag } from '../fixtures/persistence-rows.ts';

const writerScript = new URL('../fixtures/persistence-writer.ts', import.meta.url).pathname;

let dir: string;
let file: string;
let opened: PersistentStore[];
let children: ChildProcess[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'realm-sqlite-'));
  file = join(dir, 'realm.sqlite');
  opened = [];
  children = [];
});

afterEach(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const store of opened) store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A fresh in-memory IndexedDB loaded from `file`, as a restarted process would have. */
async function openRealm(): Promise<{ db: RealmDatabase; store: PersistentStore }> {
  const db = new RealmDatabase({ name: 'realm', indexedDB: new IDBFactory(), IDBKeyRange });
  const store = await openPersistentDatabase(db, file);
  opened.push(store);
  return { db, store };
}

async function reopen(store: PersistentStore): Promise<{ db: RealmDatabase; store: PersistentStore }> {
  store.close();
  return openRealm();
}

async function snapshot(db: RealmDatabase): Promise<Record<string, unknown[]>> {
  return Object.fromEntries(await Promise.all(db.tables.map(async (t) => [t.name, await t.toArray()])));
}

describe('SQLite persistence', () => {
  /** Permission bits of each file in the data dir: API keys and password hashes are in them. */
  const modes = () => Object.fromEntries(readdirSync(dir).map((name) => [name, (statSync(join(dir, name)).mode & 0o777).toString(8)]));

  it('creates the realm file and its write-ahead log readable by the owner only', async () => {
    const { db } = await openRealm();
    await db.counters.put({ name: 'x', next: 1 });
    expect(modes()).toEqual({ 'realm.sqlite': '600', 'realm.sqlite-wal': '600' });
  });

  it('makes an existing realm file readable by the owner only', async () => {
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    await openRealm();
    expect(modes()['realm.sqlite']).toBe('600');
  });

  it('keeps every kind of write across a restart', async () => {
    const { db, store } = await openRealm();
    await db.transaction('rw', db.messages, db.user_messages, db.counters, db.reactions, async () => {
      await db.counters.add({ name: 'message', next: 31 });
      await db.messages.bulkPut(Array.from({ length: 30 }, (_, i) => numberedMessage(i + 1, i < 20 ? 1 : 2)));
      await db.user_messages.bulkAdd([1, 2, 3].flatMap((user) => [1, 2, 3, 4].map((m) => unreadFlag(user, m))));
      await db.reactions.put({
        key: '1:1:unicode_emoji:1f44d',
        message_id: 1,
        user_id: 1,
        emoji_name: '+1',
        emoji_code: '1f44d',
        reaction_type: 'unicode_emoji',
        seq: 1,
      });
    });
    await db.transaction('rw', db.messages, db.user_messages, db.counters, db.reactions, async () => {
      await db.messages.update(3, { content: 'edited' });
      await db.user_messages
        .where('[user_id+message_id]')
        .between([2, Dexie.minKey], [2, Dexie.maxKey])
        .modify((row) => {
          row.flags = 1;
          delete row.unread;
        });
      await db.messages.delete(30);
      await db.messages.where('id').between(5, 8, true, true).delete(); // a primary-key range delete
      await db.messages.where('[stream_id+id]').between([2, Dexie.minKey], [2, Dexie.maxKey]).delete();
      await db.reactions.clear();
      const counter = { name: 'reaction', next: 2 };
      await db.counters.put(counter);
      counter.next = 999; // changed after the put: IndexedDB stored the value as it was
    });
    await db.counters.put({ name: 'outside-a-transaction', next: 1 });
    const before = await snapshot(db);

    const restarted = await reopen(store);

    expect(await snapshot(restarted.db)).toEqual(before);
    expect(await restarted.db.messages.get(3)).toMatchObject({ content: 'edited' });
    expect(await restarted.db.messages.where('id').between(5, 8, true, true).count()).toBe(0);
    expect(await restarted.db.messages.count()).toBe(16);
    expect(await restarted.db.user_messages.get([2, 4])).toEqual({ user_id: 2, message_id: 4, flags: 1, stream_id: 1, thread_key: 'durability', sender_id: 1 });
    expect(await restarted.db.counters.get('reaction')).toEqual({ name: 'reaction', next: 2 });
    expect(restarted.store.stats()).toMatchObject({ messages: 16, user_messages: 12, reactions: 0, counters: 3 });
  });

  it('stores what a partly failed bulkAdd did write, and nothing of the failed item', async () => {
    const { db, store } = await openRealm();
    await db.counters.put({ name: 'taken', next: 1 });
    await db.transaction('rw', db.counters, async () => {
      await db.counters.bulkAdd([{ name: 'new', next: 5 }, { name: 'taken', next: 7 }]).catch(() => undefined);
    });

    const { db: restarted } = await reopen(store);

    expect(await restarted.counters.toArray()).toEqual([
      { name: 'new', next: 5 },
      { name: 'taken', next: 1 },
    ]);
  });

  it('stores nothing of a transaction that throws or is aborted', async () => {
    const { db, store } = await openRealm();
    const failing = db.transaction('rw', db.messages, async () => {
      await db.messages.bulkPut([numberedMessage(1), numberedMessage(2)]);
      throw new Error('changed my mind');
    });
    await expect(failing).rejects.toThrow('changed my mind');
    const aborted = db.transaction('rw', db.messages, async (trans) => {
      await db.messages.put(numberedMessage(3));
      trans.abort();
    });
    await expect(aborted).rejects.toThrow();
    // A write IndexedDB refuses part-way aborts its whole transaction: which part landed is unknowable.
    const refused = db.transaction('rw', db.counters, async () => {
      await db.counters.put({ name: 'kept', next: 1 });
      await db.counters.bulkPut([{ name: 'fine', next: 1 }, { next: 2 } as never]).catch(() => undefined);
    });
    await expect(refused).rejects.toThrow();
    expect(store.stats()).toMatchObject({ messages: 0, counters: 0 });
    const before = await snapshot(db);

    const { db: restarted } = await reopen(store);

    expect(await snapshot(restarted)).toEqual(before);
    expect(await restarted.messages.count()).toBe(0);
    expect(await restarted.counters.count()).toBe(0);
  });

  it('keeps a write acknowledged while the store was closing', async () => {
    const { db, store } = await openRealm();
    const write = db.messages.put(numberedMessage(1));
    store.close();
    const acknowledged = await write.then(
      () => true,
      () => false,
    );

    const { db: restarted } = await openRealm();

    expect(await restarted.messages.count()).toBe(acknowledged ? 1 : 0);
  });

  it('reopens a file of 20,000 messages without reading a single row, then reads pages from it', async () => {
    const { db, store } = await openRealm();
    for (let first = 1; first <= 20_000; first += 5_000) {
      await db.messages.bulkPut(Array.from({ length: 5_000 }, (_, i) => numberedMessage(first + i, 1 + ((first + i) % 3))));
    }
    store.close();
    // Rows are JSON in the file: a start that loaded them would parse each one.
    const parse = vi.spyOn(JSON, 'parse');

    const { db: restarted } = await openRealm();
    const parsedAtOpen = parse.mock.calls.length;
    const page = await restarted.messages.where('[stream_id+id]').between([2, Dexie.minKey], [2, Dexie.maxKey]).reverse().limit(100).toArray();
    parse.mockRestore();

    // A few per table (its stored layout), none per row.
    expect(parsedAtOpen).toBeLessThan(3 * restarted.tables.length);
    expect(page.map((m) => m.id).slice(0, 3)).toEqual([19_999, 19_996, 19_993]);
    expect(page).toHaveLength(100);
  });

  it('refuses a second open of the same file, in this process or another', async () => {
    const { store } = await openRealm();
    const second = new RealmDatabase({ name: 'second', indexedDB: new IDBFactory(), IDBKeyRange });
    await expect(openPersistentDatabase(second, file)).rejects.toThrow(/in use by another Offline Realm process/);
    store.close();

    const writer = startWriter();
    await writer.acknowledged(1);
    await expect(openRealm()).rejects.toThrow(/in use by another Offline Realm process/);
  });

  it('keeps every acknowledged transaction, whole, when the writer is killed with SIGKILL', async () => {
    // Killed from outside at an arbitrary moment, e.g. in the middle of a SQLite commit.
    const killedByParent = startWriter();
    await killedByParent.acknowledged(400);
    await killedByParent.kill();
    await expectWholeAndAcknowledged(killedByParent.acks);

    // Killed right after acknowledging, continuing the same file.
    const killedItself = startWriter(300);
    await killedItself.closed;
    expect(killedItself.acks).toHaveLength(300);
    await expectWholeAndAcknowledged(killedItself.acks);
  });
});

/** Each transaction is all or nothing: ids 1..n, every message with its flag row and counter. */
async function expectWholeAndAcknowledged(acks: number[]): Promise<void> {
  const { db, store } = await openRealm();
  const messages = await db.messages.toArray();
  const stored = messages.length;
  expect(stored).toBeGreaterThanOrEqual(Math.max(...acks));
  expect(messages).toEqual(Array.from({ length: stored }, (_, i) => numberedMessage(i + 1)));
  expect(await db.user_messages.toArray()).toEqual(Array.from({ length: stored }, (_, i) => unreadFlag(1, i + 1)));
  expect(await db.counters.get('message')).toEqual({ name: 'message', next: stored + 1 });
  store.close();
}

/** Runs the writer fixture on `file`, collecting the ids it acknowledges. */
function startWriter(selfKillAfter?: number) {
  const args = [writerScript, file, ...(selfKillAfter ? [String(selfKillAfter)] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const acks: number[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  // 'close' rather than 'exit': every line the child printed has been read by then.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    acks.push(Number(line));
    for (const waiter of waiters.filter((w) => acks.length >= w.count)) waiter.resolve();
  });
  return {
    acks,
    closed,
    async acknowledged(count: number): Promise<void> {
      const enough = new Promise<void>((resolve) => waiters.push({ count, resolve }));
      const died = closed.then(() => {
        throw new Error(`writer exited after ${acks.length} acknowledgements`);
      });
      await Promise.race([enough, died]);
    },
    async kill(): Promise<void> {
      child.kill('SIGKILL');
      await closed;
    },
  };
}
