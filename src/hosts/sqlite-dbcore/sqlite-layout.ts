import type { DatabaseSync } from 'node:sqlite';
import type { DBCoreIndex, DBCoreSchema, DBCoreTableSchema } from 'dexie';
import { indexKeyOf, multiEntryKeysOf } from './index-keys.ts';
import { decodeValue } from './value-codec.ts';

/**
 * Where a Dexie table lives in the SQLite file. Generic over the schema: each table is
 * `"r:NAME"` (`k`: the encoded primary key, `v`: the row), each plain index a column of it
 * (`"x:INDEX"`, NULL where IndexedDB leaves the row out) with a SQLite index on (column, k), each
 * multi-entry index a table `"m:NAME:INDEX"` of (encoded entry, primary key). `_layout` records
 * each table's key paths so that a changed schema is migrated when the file is opened.
 */
export interface TableLayout {
  rows: string;
  /** quoted column per plain index name */
  columns: Map<string, string>;
  /** quoted table per multi-entry index name */
  entries: Map<string, string>;
  plainIndexes: DBCoreIndex[];
  multiEntryIndexes: DBCoreIndex[];
}

/** A secondary index's name (only the primary key has none). */
export const nameOf = (index: DBCoreIndex): string => index.name ?? '';

export const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

interface IndexSpec {
  keyPath: string | string[] | null;
  unique: boolean;
  multiEntry: boolean;
}

interface TableSpec {
  primaryKey: string | string[] | null;
  indexes: Record<string, IndexSpec>;
}

const specOf = (index: DBCoreIndex): IndexSpec => ({
  keyPath: index.keyPath ?? null,
  unique: Boolean(index.unique),
  multiEntry: Boolean(index.multiEntry),
});

export function layoutOf(table: DBCoreTableSchema): TableLayout {
  const plainIndexes = table.indexes.filter((index) => !index.multiEntry);
  const multiEntryIndexes = table.indexes.filter((index) => index.multiEntry);
  return {
    rows: quote(`r:${table.name}`),
    columns: new Map(plainIndexes.map((index) => [nameOf(index), quote(`x:${nameOf(index)}`)])),
    entries: new Map(multiEntryIndexes.map((index) => [nameOf(index), quote(`m:${table.name}:${nameOf(index)}`)])),
    plainIndexes,
    multiEntryIndexes,
  };
}

/**
 * Creates what the schema needs and is missing, migrates indexes whose definition changed (built
 * from the stored rows) and drops indexes the schema no longer has, all in one SQLite
 * transaction. Tables the schema no longer names are left as they are. A changed primary key
 * cannot be migrated: refused.
 */
export function prepareLayout(sqlite: DatabaseSync, schema: DBCoreSchema): void {
  checkFormat(sqlite);
  sqlite.exec('CREATE TABLE IF NOT EXISTS _layout (tbl TEXT PRIMARY KEY, spec TEXT NOT NULL)');
  const stored = new Map<string, TableSpec>(
    sqlite
      .prepare('SELECT tbl, spec FROM _layout')
      .all()
      .map((row) => [String(row.tbl), JSON.parse(String(row.spec)) as TableSpec]),
  );
  const save = sqlite.prepare('INSERT INTO _layout (tbl, spec) VALUES (?, ?) ON CONFLICT (tbl) DO UPDATE SET spec = excluded.spec');
  sqlite.exec('BEGIN IMMEDIATE');
  try {
    for (const table of schema.tables) {
      const { primaryKey } = table;
      if (primaryKey.autoIncrement) throw new Error(`table ${table.name}: auto-increment keys are not supported by the SQLite store`);
      if (table.indexes.some((index) => index.multiEntry && index.unique)) {
        throw new Error(`table ${table.name}: unique multi-entry indexes are not supported by the SQLite store`);
      }
      const wanted: TableSpec = {
        primaryKey: primaryKey.keyPath ?? null,
        indexes: Object.fromEntries(table.indexes.map((index) => [nameOf(index), specOf(index)])),
      };
      const before = stored.get(table.name);
      const layout = layoutOf(table);
      if (!before) {
        sqlite.exec(`CREATE TABLE ${layout.rows} (k BLOB PRIMARY KEY NOT NULL, v TEXT NOT NULL) WITHOUT ROWID`);
      } else if (JSON.stringify(before.primaryKey) !== JSON.stringify(wanted.primaryKey)) {
        throw new Error(`table ${table.name}: its primary key changed from ${JSON.stringify(before.primaryKey)}; the stored rows cannot be migrated`);
      }
      for (const [name, spec] of Object.entries(before?.indexes ?? {})) {
        if (JSON.stringify(spec) !== JSON.stringify(wanted.indexes[name])) dropIndex(sqlite, table.name, name, spec);
      }
      for (const index of table.indexes) {
        const was = before?.indexes[nameOf(index)];
        if (!was || JSON.stringify(was) !== JSON.stringify(wanted.indexes[nameOf(index)])) addIndex(sqlite, table, layout, index, before !== undefined);
      }
      if (JSON.stringify(before) !== JSON.stringify(wanted)) save.run(table.name, JSON.stringify(wanted));
    }
    sqlite.exec('COMMIT');
  } catch (error) {
    sqlite.exec('ROLLBACK');
    throw error;
  }
}

/**
 * The file's format (key bytes, row text, this layout) as SQLite's `user_version`, so that a later
 * change of format is recognised: a file of a newer format is refused rather than misread.
 */
const FORMAT_VERSION = 1;

function checkFormat(sqlite: DatabaseSync): void {
  const version = Number(sqlite.prepare('PRAGMA user_version').get()!.user_version);
  if (version > FORMAT_VERSION) {
    throw new Error(`the file was written by a newer Offline Realm (store format ${version}; this one reads format ${FORMAT_VERSION})`);
  }
  if (version < FORMAT_VERSION) sqlite.exec(`PRAGMA user_version = ${FORMAT_VERSION}`);
}

function dropIndex(sqlite: DatabaseSync, table: string, name: string, spec: IndexSpec): void {
  if (spec.multiEntry) {
    sqlite.exec(`DROP TABLE IF EXISTS ${quote(`m:${table}:${name}`)}`);
  } else {
    sqlite.exec(`DROP INDEX IF EXISTS ${quote(`i:${table}:${name}`)}`);
    sqlite.exec(`ALTER TABLE ${quote(`r:${table}`)} DROP COLUMN ${quote(`x:${name}`)}`);
  }
}

/** Adds an index and, on a table that has rows, computes its keys from them. */
function addIndex(sqlite: DatabaseSync, table: DBCoreTableSchema, layout: TableLayout, index: DBCoreIndex, hasRows: boolean): void {
  if (index.multiEntry) {
    const entries = layout.entries.get(nameOf(index))!;
    sqlite.exec(`CREATE TABLE ${entries} (ik BLOB NOT NULL, pk BLOB NOT NULL, PRIMARY KEY (ik, pk)) WITHOUT ROWID`);
    sqlite.exec(`CREATE INDEX ${quote(`p:${table.name}:${nameOf(index)}`)} ON ${entries} (pk)`);
    if (!hasRows) return;
    const insert = sqlite.prepare(`INSERT OR IGNORE INTO ${entries} (ik, pk) VALUES (?, ?)`);
    forEachRow(sqlite, layout.rows, (k, row) => {
      for (const key of multiEntryKeysOf(index, row)) insert.run(key, k);
    });
    return;
  }
  const column = layout.columns.get(nameOf(index))!;
  sqlite.exec(`ALTER TABLE ${layout.rows} ADD COLUMN ${column} BLOB`);
  if (hasRows) {
    const update = sqlite.prepare(`UPDATE ${layout.rows} SET ${column} = ? WHERE k = ?`);
    forEachRow(sqlite, layout.rows, (k, row) => update.run(indexKeyOf(index, row), k));
  }
  // On (column, k): the order of an IndexedDB index, key then primary key. Partial: the rows
  // IndexedDB leaves out (most flag rows, for the sparse flag indexes) take no space in it.
  const unique = index.unique ? 'UNIQUE ' : '';
  const columns = index.unique ? column : `${column}, k`;
  sqlite.exec(`CREATE ${unique}INDEX ${quote(`i:${table.name}:${nameOf(index)}`)} ON ${layout.rows} (${columns}) WHERE ${column} IS NOT NULL`);
}

/** Every stored row in key order, read in chunks: the table is written to meanwhile. */
function forEachRow(sqlite: DatabaseSync, rows: string, visit: (key: Uint8Array, row: unknown) => void): void {
  const first = sqlite.prepare(`SELECT k, v FROM ${rows} ORDER BY k LIMIT ${MIGRATION_CHUNK}`);
  const next = sqlite.prepare(`SELECT k, v FROM ${rows} WHERE k > ? ORDER BY k LIMIT ${MIGRATION_CHUNK}`);
  for (let chunk = first.all(); chunk.length > 0; ) {
    for (const { k, v } of chunk) visit(k as Uint8Array, decodeValue(v as string));
    chunk = next.all(chunk.at(-1)!.k as Uint8Array);
  }
}

const MIGRATION_CHUNK = 1_000;
