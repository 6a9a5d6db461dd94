import { DatabaseSync } from 'node:sqlite';
import { Dexie, type Table } from 'dexie';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { attachSqlite } from '../../src/hosts/sqlite-persistence.ts';

/**
 * The SQLite DBCore against fake-indexeddb as the oracle: the same writes, then the same Dexie
 * queries (ranges on plain, compound, multi-entry and unique indexes, reverse, limit, offset,
 * anyOf, filters, unique keys, counts) must answer the same on both.
 */
interface Item {
  id: number;
  n?: unknown;
  s?: unknown;
  tags?: unknown;
  u?: unknown;
}

const SCHEMA = { items: 'id, n, s, [n+s], [s+n+id], *tags, &u', pairs: '[a+b], b' };

class OracleDb extends Dexie {
  items!: Table<Item, number>;
  pairs!: Table<{ a: number; b: string; c?: number }, [number, string]>;
  constructor(name: string) {
    super(name, { indexedDB: new IDBFactory(), IDBKeyRange });
    this.version(1).stores(SCHEMA);
  }
}

async function bothDatabases(): Promise<[OracleDb, OracleDb]> {
  const oracle = new OracleDb('oracle');
  await oracle.open();
  const sqlite = new OracleDb('sqlite');
  await attachSqlite(sqlite, new DatabaseSync(':memory:'));
  return [oracle, sqlite];
}

const field = fc.oneof(
  fc.integer({ min: 0, max: 4 }),
  fc.constantFrom('a', 'b', 'ab', 'B', '', 'é'),
  fc.constantFrom(undefined, null, true),
  fc.constant([1, 'x']),
);
const item = fc.record(
  {
    id: fc.integer({ min: 1, max: 30 }),
    n: field,
    s: field,
    tags: fc.oneof(fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constantFrom('t', 'u', null)), { maxLength: 4 }), field),
    u: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
  },
  { requiredKeys: ['id'] },
);
const pair = fc.record({ a: fc.integer({ min: 0, max: 3 }), b: fc.constantFrom('x', 'y', 'z'), c: fc.integer() });

type Write =
  | { kind: 'bulkPut'; items: Item[] }
  | { kind: 'bulkAdd'; items: Item[] }
  | { kind: 'bulkDelete'; ids: number[] }
  | { kind: 'deleteBelow'; id: number }
  | { kind: 'modify'; n: number }
  | { kind: 'pairs'; pairs: Array<{ a: number; b: string; c: number }> };

const write: fc.Arbitrary<Write> = fc.oneof(
  fc.record({ kind: fc.constant('bulkPut' as const), items: fc.array(item, { maxLength: 8 }) }),
  fc.record({ kind: fc.constant('bulkAdd' as const), items: fc.array(item, { maxLength: 4 }) }),
  fc.record({ kind: fc.constant('bulkDelete' as const), ids: fc.array(fc.integer({ min: 1, max: 30 }), { maxLength: 4 }) }),
  fc.record({ kind: fc.constant('deleteBelow' as const), id: fc.integer({ min: 1, max: 30 }) }),
  fc.record({ kind: fc.constant('modify' as const), n: fc.integer({ min: 0, max: 4 }) }),
  fc.record({ kind: fc.constant('pairs' as const), pairs: fc.array(pair, { maxLength: 6 }) }),
);

/** What a write did: its result, or the name of its error and which items failed. */
async function apply(db: OracleDb, w: Write): Promise<unknown> {
  try {
    switch (w.kind) {
      case 'bulkPut':
        return await db.items.bulkPut(w.items);
      case 'bulkAdd':
        return await db.items.bulkAdd(w.items);
      case 'bulkDelete':
        return await db.items.bulkDelete(w.ids);
      case 'deleteBelow':
        return await db.items.where('id').below(w.id).delete();
      case 'modify':
        return await db.items.where('n').equals(w.n).modify((row) => {
          row.s = `m${String(row.s)}`;
        });
      case 'pairs':
        return await db.pairs.bulkPut(w.pairs);
    }
  } catch (error) {
    const failures = (error as { failuresByPos?: Record<number, Error> }).failuresByPos;
    return { error: (error as Error).name, failed: failures && Object.keys(failures) };
  }
}

const bound = fc.oneof(fc.integer({ min: -1, max: 5 }), fc.constantFrom('', 'a', 'ab', 'b', 'é', Dexie.minKey, Dexie.maxKey));
const index = fc.constantFrom('id', 'n', 's', 'tags', 'u');

type Query = (db: OracleDb) => Promise<unknown>;

const query: fc.Arbitrary<[string, Query]> = fc.oneof(
  fc.tuple(index, bound, bound, fc.boolean(), fc.boolean(), fc.boolean(), fc.nat(4), fc.nat(6)).map(([ix, lo, hi, incLo, incHi, reverse, offset, limit]): [string, Query] => [
    `${ix} between ${String(lo)} ${String(hi)} ${incLo} ${incHi} reverse=${reverse} offset=${offset} limit=${limit}`,
    (db) => {
      let c = db.items.where(ix).between(lo, hi, incLo, incHi);
      if (reverse) c = c.reverse();
      return c.offset(offset).limit(limit || Infinity).toArray();
    },
  ]),
  fc.tuple(index, fc.array(bound, { maxLength: 4 })).map(([ix, keys]): [string, Query] => [
    `${ix} anyOf ${keys.map(String)}`,
    (db) => db.items.where(ix).anyOf(keys).primaryKeys(),
  ]),
  fc.tuple(index, fc.boolean()).map(([ix, reverse]): [string, Query] => [
    `${ix} uniqueKeys reverse=${reverse}`,
    (db) => (reverse ? db.items.orderBy(ix).reverse() : db.items.orderBy(ix)).uniqueKeys(),
  ]),
  fc.tuple(index, fc.boolean()).map(([ix, reverse]): [string, Query] => [
    `${ix} keys and count, reverse=${reverse}`,
    async (db) => {
      const c = reverse ? db.items.orderBy(ix).reverse() : db.items.orderBy(ix);
      return [await c.keys(), await c.primaryKeys(), await db.items.orderBy(ix).count()];
    },
  ]),
  fc.tuple(fc.integer({ min: 0, max: 4 }), fc.boolean()).map(([n, reverse]): [string, Query] => [
    `[n+s] prefix ${n} filtered reverse=${reverse}`,
    (db) => {
      const c = db.items.where('[n+s]').between([n, Dexie.minKey], [n, Dexie.maxKey]);
      return (reverse ? c.reverse() : c).filter((row) => row.id % 2 === 0).toArray();
    },
  ]),
  fc.tuple(fc.constantFrom('a', 'b', 'ab', ''), fc.integer({ min: 0, max: 4 })).map(([s, n]): [string, Query] => [
    `[s+n+id] from ${s} ${n}, first and last`,
    async (db) => {
      const c = () => db.items.where('[s+n+id]').between([s, n, Dexie.minKey], [s, Dexie.maxKey]);
      return [await c().first(), await c().last(), await c().count(), await c().reverse().limit(2).toArray()];
    },
  ]),
  fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom('x', 'y')).map(([a, b]): [string, Query] => [
    `pairs around [${a}, ${b}]`,
    async (db) => [
      await db.pairs.where('[a+b]').above([a, b]).toArray(),
      await db.pairs.where('b').equals(b).primaryKeys(),
      await db.pairs.get([a, b]),
      await db.pairs.bulkGet([[a, b], [a, 'z']]),
      await db.pairs.where('[a+b]').between([a, Dexie.minKey], [a, Dexie.maxKey]).count(),
      await db.pairs.where('b').startsWith(b.slice(0, 0)).primaryKeys(),
    ],
  ]),
  fc.constant<[string, Query]>(['every row', (db) => Promise.all([db.items.toArray(), db.pairs.toArray()])]),
);

/** A query's rows, or the name of the error it failed with (an empty range is a DataError). */
const answer = (run: Query, db: OracleDb): Promise<unknown> => run(db).catch((error: Error) => ({ error: error.name }));

describe('the SQLite DBCore against fake-indexeddb', () => {
  it('answers every query as IndexedDB does after the same writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 8 }), fc.array(query, { minLength: 1, maxLength: 8 }), async (writes, queries) => {
        const [oracle, sqlite] = await bothDatabases();
        try {
          for (const w of writes) expect(await apply(sqlite, w)).toEqual(await apply(oracle, w));
          for (const [name, run] of queries) expect([name, await answer(run, sqlite)]).toEqual([name, await answer(run, oracle)]);
        } finally {
          oracle.close();
          sqlite.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('walks a cursor whose rows are rewritten during the walk as IndexedDB does', async () => {
    const [oracle, sqlite] = await bothDatabases();
    const walk = async (db: OracleDb) => {
      await db.items.bulkPut(Array.from({ length: 60 }, (_, i) => ({ id: i + 1, n: i % 3 })));
      const seen: number[] = [];
      await db.transaction('rw', db.items, async () => {
        await db.items.orderBy('id').each((row) => {
          seen.push(row.id);
        });
        await db.items.where('n').equals(1).modify({ n: 2 });
      });
      return [seen, await db.items.where('n').equals(2).primaryKeys()];
    };
    expect(await walk(sqlite)).toEqual(await walk(oracle));
  });

  it('lets a read-only transaction see only committed rows while a write is in flight', async () => {
    const [, sqlite] = await bothDatabases();
    await sqlite.items.put({ id: 1, n: 1 });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = sqlite.transaction('rw', sqlite.items, async (trans) => {
      await sqlite.items.put({ id: 1, n: 2 });
      await Dexie.waitFor(held);
      trans.abort();
    });
    const read = sqlite.transaction('r', sqlite.items, () => sqlite.items.get(1));
    release();
    await expect(writing).rejects.toThrow();
    expect(await read).toEqual({ id: 1, n: 1 });
  });
});
