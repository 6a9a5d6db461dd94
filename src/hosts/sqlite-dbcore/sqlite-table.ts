import type {
  DBCoreCountRequest,
  DBCoreGetManyRequest,
  DBCoreGetRequest,
  DBCoreKeyRange,
  DBCoreMutateRequest,
  DBCoreMutateResponse,
  DBCoreOpenCursorRequest,
  DBCoreQueryRequest,
  DBCoreQueryResponse,
  DBCoreTable,
  DBCoreTableSchema,
  DBCoreTransaction,
} from 'dexie';
import { dataError, indexKeyOf, multiEntryKeysOf } from './index-keys.ts';
import { scanIndex } from './index-scan.ts';
import { indexSource, rangeCondition } from './index-source.ts';
import { decodeKey, encodeKey, isValidKey } from './key-codec.ts';
import { SqliteCursor } from './sqlite-cursor.ts';
import { layoutOf, nameOf, type TableLayout } from './sqlite-layout.ts';
import { SqliteTransaction } from './sqlite-transaction.ts';
import type { StatementCache } from './statement-cache.ts';
import { decodeValue, encodeValue } from './value-codec.ts';

/** SQLite's SQLITE_CONSTRAINT primary result code (extended codes keep it in the low byte). */
const SQLITE_CONSTRAINT = 19;

/** One Dexie table as DBCore operations on its SQLite tables (see sqlite-layout.ts). */
export class SqliteTable implements DBCoreTable {
  readonly name: string;
  readonly schema: DBCoreTableSchema;
  readonly #layout: TableLayout;
  readonly #statements: StatementCache;
  /** Bumped by every write, so open cursors refetch what they had read ahead. */
  #generation = 0;
  /** A row with all its plain index keys in one statement; `put` replaces the row in place. */
  readonly #writeSql: Record<'add' | 'put', string>;

  constructor(schema: DBCoreTableSchema, statements: StatementCache) {
    this.name = schema.name;
    this.schema = schema;
    this.#layout = layoutOf(schema);
    this.#statements = statements;
    const columns = ['k', 'v', ...this.#layout.columns.values()];
    const add = `INSERT INTO ${this.#layout.rows} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    const replace = columns.slice(1).map((column) => `${column} = excluded.${column}`);
    this.#writeSql = { add, put: `${add} ON CONFLICT (k) DO UPDATE SET ${replace.join(', ')}` };
  }

  /**
   * A mutate that throws (an invalid key, a failing disk) may have written part of its items: the
   * transaction is aborted, so nothing of it is half-written.
   */
  mutate = (req: DBCoreMutateRequest): Promise<DBCoreMutateResponse> => {
    const trans = transactionOf(req.trans);
    return trans.run(this.name, () => {
      if (trans.mode !== 'readwrite') throw new DOMException('The transaction is read-only', 'ReadOnlyError');
      try {
        return this.#mutate(req);
      } catch (error) {
        if (trans.state === 'active') trans.abort();
        throw error;
      }
    });
  };

  #mutate(req: DBCoreMutateRequest): DBCoreMutateResponse {
    this.#generation++;
    switch (req.type) {
      case 'add':
      case 'put':
        return this.#write(req.type, req.values, req.keys);
      case 'delete':
        for (const key of req.keys) this.#delete(encodeKeyArgument(key));
        return { numFailures: 0, failures: {}, results: req.keys, lastResult: undefined };
      case 'deleteRange':
        this.#deleteRange(req.range);
        return { numFailures: 0, failures: {}, results: [], lastResult: undefined };
    }
  }

  get = (req: DBCoreGetRequest): Promise<unknown> => transactionOf(req.trans).run(this.name, () => this.#get(encodeKeyArgument(req.key)));

  getMany = (req: DBCoreGetManyRequest): Promise<unknown[]> =>
    transactionOf(req.trans).run(this.name, () => req.keys.map((key) => (key == null ? undefined : this.#get(encodeKeyArgument(key)))));

  query = (req: DBCoreQueryRequest): Promise<DBCoreQueryResponse> =>
    transactionOf(req.trans).run(this.name, () => {
      const limit = req.limit ?? Infinity;
      if (limit <= 0) return { result: [] };
      const direction = req.direction ?? 'next';
      const unique = direction === 'nextunique' || direction === 'prevunique';
      const rows = scanIndex(this.#statements, {
        source: indexSource(this.#layout, req.query.index),
        range: req.query.range,
        values: Boolean(req.values),
        reverse: direction === 'prev' || direction === 'prevunique',
        unique,
        start: null,
        // A unique walk drops repeated keys after the SELECT: it cannot be limited in SQL.
        limit: unique ? Infinity : limit,
      });
      const kept = unique ? firstOfEachKey(rows).slice(0, limit) : rows;
      return { result: kept.map((row) => (req.values ? decodeValue(row.v!) : decodeKey(row.pk))) };
    });

  openCursor = (req: DBCoreOpenCursorRequest): Promise<SqliteCursor | null> => {
    const trans = transactionOf(req.trans);
    const source = indexSource(this.#layout, req.query.index);
    const reverse = Boolean(req.reverse);
    const unique = Boolean(req.unique);
    return trans.run(this.name, () =>
      SqliteCursor.open(trans, {
        table: this.name,
        reverse,
        unique,
        generation: () => this.#generation,
        fetch: (start, limit) =>
          scanIndex(this.#statements, { source, range: req.query.range, values: req.values !== false, reverse, unique, start, limit }),
      }),
    );
  };

  count = (req: DBCoreCountRequest): Promise<number> =>
    transactionOf(req.trans).run(this.name, () => {
      const source = indexSource(this.#layout, req.query.index);
      const range = rangeCondition(source.ik, req.query.range);
      const sql = `SELECT count(*) AS n FROM ${source.from(false)} WHERE ${source.present} AND ${range.sql}`;
      return Number(this.#statements.get(sql).get(...range.params)!.n);
    });

  #get(key: Uint8Array): unknown {
    const row = this.#statements.get(`SELECT v FROM ${this.#layout.rows} WHERE k = ?`).get(key);
    return row && decodeValue(row.v as string);
  }

  /**
   * add/put, item by item as IndexedDB requests: an item refused by a constraint is a failure
   * that writes nothing of itself; the others are written.
   */
  #write(type: 'add' | 'put', values: readonly unknown[], keys: readonly unknown[] | undefined): DBCoreMutateResponse {
    const { primaryKey } = this.schema;
    const { plainIndexes, multiEntryIndexes, entries } = this.#layout;
    const insert = this.#statements.get(this.#writeSql[type]);
    const failures: Record<number, Error> = {};
    const results: unknown[] = [];
    let numFailures = 0;
    values.forEach((value, i) => {
      const keyValue: unknown = primaryKey.outbound ? keys?.[i] : primaryKey.extractKey!(value);
      if (!isValidKey(keyValue)) throw dataError(`the row of ${this.name} has no valid primary key`);
      const k = encodeKey(keyValue);
      try {
        insert.run(k, encodeValue(value), ...plainIndexes.map((index) => indexKeyOf(index, value)));
      } catch (error) {
        if (!isConstraintError(error)) throw error;
        failures[i] = new DOMException(`${this.name}: ${(error as Error).message}`, 'ConstraintError');
        numFailures++;
        results.push(undefined);
        return;
      }
      for (const index of multiEntryIndexes) {
        const table = entries.get(nameOf(index))!;
        if (type === 'put') this.#statements.get(`DELETE FROM ${table} WHERE pk = ?`).run(k);
        const add = this.#statements.get(`INSERT OR IGNORE INTO ${table} (ik, pk) VALUES (?, ?)`);
        for (const entry of multiEntryKeysOf(index, value)) add.run(entry, k);
      }
      results.push(keyValue);
    });
    return { numFailures, failures, results, lastResult: results.at(-1) };
  }

  #delete(key: Uint8Array): void {
    this.#statements.get(`DELETE FROM ${this.#layout.rows} WHERE k = ?`).run(key);
    for (const table of this.#layout.entries.values()) this.#statements.get(`DELETE FROM ${table} WHERE pk = ?`).run(key);
  }

  #deleteRange(range: DBCoreKeyRange): void {
    const rowsRange = rangeCondition('k', range);
    this.#statements.get(`DELETE FROM ${this.#layout.rows} WHERE ${rowsRange.sql}`).run(...rowsRange.params);
    const entriesRange = rangeCondition('pk', range);
    for (const table of this.#layout.entries.values()) {
      this.#statements.get(`DELETE FROM ${table} WHERE ${entriesRange.sql}`).run(...entriesRange.params);
    }
  }
}

/** The SQLite transaction behind a DBCore request; Dexie's upgrade transactions are not ones. */
function transactionOf(trans: DBCoreTransaction): SqliteTransaction {
  if (trans instanceof SqliteTransaction) return trans;
  throw new Error('the SQLite store serves only its own transactions (an upgrade or populate callback cannot write to it)');
}

function encodeKeyArgument(key: unknown): Uint8Array {
  if (!isValidKey(key)) throw dataError('not a valid key');
  return encodeKey(key);
}

function isConstraintError(error: unknown): boolean {
  return error instanceof Error && 'errcode' in error && ((error.errcode as number) & 0xff) === SQLITE_CONSTRAINT;
}

function firstOfEachKey<T extends { ik: Uint8Array }>(rows: T[]): T[] {
  return rows.filter((row, i) => i === 0 || Buffer.compare(rows[i - 1]!.ik, row.ik) !== 0);
}
