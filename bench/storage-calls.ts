// What one API call asks of the store, counted on the SQLite store as test/support/indexeddb-requests.ts
// counts fake-indexeddb's requests: a DBCore middleware just above the SQLite DBCore (level -1000)
// and below all of Dexie's own layers, so it sees exactly the operations that reach SQLite.
import type { DBCore, DBCoreCursor, DBCoreTable, Middleware } from 'dexie';

export interface StorageCalls {
  /** DBCore operations: get, getMany, query, openCursor, count, mutate (one `SELECT` or one write each). */
  calls: number;
  /** Rows the reads returned (a cursor's steps included): what grows if a read is not bounded. */
  rowsRead: number;
}

export class StorageCallCounter {
  #current: StorageCalls | null = null;

  /** Install with `db.use()` before the database is opened. */
  readonly middleware: Middleware<DBCore> = {
    stack: 'dbcore',
    name: 'BenchStorageCallCounter',
    level: -999,
    create: (down) => ({ ...down, table: (name) => this.#counted(down.table(name)) }),
  };

  /** The store's calls and rows read while `body` runs (and its promise settles). */
  async record(body: () => Promise<unknown>): Promise<StorageCalls> {
    if (this.#current) throw new Error('record() calls cannot overlap');
    const current = { calls: 0, rowsRead: 0 };
    this.#current = current;
    try {
      await body();
    } finally {
      this.#current = null;
    }
    return current;
  }

  #count(rows: number): void {
    if (!this.#current) return;
    this.#current.calls++;
    this.#current.rowsRead += rows;
  }

  #counted(table: DBCoreTable): DBCoreTable {
    return {
      ...table,
      get: async (req) => {
        const value: unknown = await table.get(req);
        this.#count(value === undefined ? 0 : 1);
        return value;
      },
      getMany: async (req) => {
        const values = await table.getMany(req);
        this.#count(values.filter((value) => value !== undefined).length);
        return values;
      },
      query: async (req) => {
        const response = await table.query(req);
        this.#count(response.result.length);
        return response;
      },
      count: async (req) => {
        const count = await table.count(req);
        this.#count(0);
        return count;
      },
      mutate: async (req) => {
        const response = await table.mutate(req);
        this.#count(0);
        return response;
      },
      openCursor: async (req) => {
        const cursor = await table.openCursor(req);
        this.#count(cursor ? 1 : 0);
        return cursor && this.#countedCursor(cursor);
      },
    };
  }

  /** Each step after the first row is one more row read. The cursor itself is patched: its getters read private fields. */
  #countedCursor(cursor: DBCoreCursor): DBCoreCursor {
    const start = cursor.start.bind(cursor);
    let started = false;
    cursor.start = (onNext) =>
      start(() => {
        if (started && this.#current) this.#current.rowsRead++;
        started = true;
        onNext();
      });
    return cursor;
  }
}
