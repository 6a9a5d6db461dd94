import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Dexie } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openPersistentDatabase, type PersistentStore } from '../../src/hosts/sqlite-persistence.ts';

let dir: string;
let file: string;
let opened: PersistentStore[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'realm-layout-'));
  file = join(dir, 'realm.sqlite');
  opened = [];
});

afterEach(() => {
  for (const store of opened) store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A Dexie database with one version of a schema, opened on the file. */
async function openWith(stores: Record<string, string>): Promise<Dexie> {
  const db = new Dexie('layout', { indexedDB: new IDBFactory(), IDBKeyRange });
  db.version(1).stores(stores);
  opened.push(await openPersistentDatabase(db, file));
  return db;
}

function closeAll(): void {
  for (const store of opened.splice(0)) store.close();
}

describe('the SQLite store across schema changes', () => {
  it('builds an index the schema gained from the rows already stored, and drops one it lost', async () => {
    const first = await openWith({ items: 'id, n, u' });
    await first.table('items').bulkPut([
      { id: 1, n: 1, s: 'b', tags: ['x', 'y'], u: 1 },
      { id: 2, n: 2, s: 'a', tags: ['y'], u: 2 },
      { id: 3, n: 1 },
    ]);
    closeAll();

    const second = await openWith({ items: 'id, s, [n+id], *tags' });
    const items = second.table('items');

    expect(await items.orderBy('s').primaryKeys()).toEqual([2, 1]);
    expect(await items.where('[n+id]').between([1, Dexie.minKey], [1, Dexie.maxKey]).primaryKeys()).toEqual([1, 3]);
    expect(await items.where('tags').equals('y').primaryKeys()).toEqual([1, 2]);
    await expect(items.where('u').equals(1).toArray()).rejects.toThrow();
    await items.put({ id: 4, n: 1, s: 'c', tags: ['x'] });
    expect(await items.where('tags').equals('x').primaryKeys()).toEqual([1, 4]);
    closeAll();
    const raw = new DatabaseSync(file);
    const columns = raw.prepare(`SELECT name FROM pragma_table_info('r:items') ORDER BY name`).all().map((row) => row.name);
    raw.close();
    expect(columns).toEqual(['k', 'v', 'x:[n+id]', 'x:s']);
  });

  it('refuses to open a file whose table changed its primary key, naming the table', async () => {
    const first = await openWith({ items: 'id' });
    await first.table('items').put({ id: 1, other: 2 });
    closeAll();

    await expect(openWith({ items: 'other' })).rejects.toThrow('table items: its primary key changed from "id"');
  });

  it('refuses a file written in a newer store format, saying so', async () => {
    const newer = new DatabaseSync(file);
    newer.exec('PRAGMA user_version = 2');
    newer.close();

    await expect(openWith({ items: 'id' })).rejects.toThrow('the file was written by a newer Offline Realm (store format 2; this one reads format 1)');
  });

  it('converts a file of the earlier write-through format once, then reads it through its indexes', async () => {
    const old = new DatabaseSync(file);
    old.exec('CREATE TABLE records (tbl TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (tbl, key))');
    const insert = old.prepare('INSERT INTO records (tbl, key, value) VALUES (?, ?, ?)');
    old.exec('BEGIN');
    for (let id = 1; id <= 12_000; id++) insert.run('items', JSON.stringify(id), JSON.stringify({ id, n: id % 3 }));
    insert.run('pairs', JSON.stringify([1, 'x']), JSON.stringify({ a: 1, b: 'x' }));
    old.exec('COMMIT');
    old.close();

    const db = await openWith({ items: 'id, n', pairs: '[a+b]' });

    expect(await db.table('items').count()).toBe(12_000);
    expect(await db.table('items').where('n').equals(2).count()).toBe(4_000);
    expect(await db.table('pairs').get([1, 'x'])).toEqual({ a: 1, b: 'x' });
    closeAll();
    const raw = new DatabaseSync(file);
    expect(raw.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'records'").get()).toEqual({ n: 0 });
    raw.close();
  });
});
