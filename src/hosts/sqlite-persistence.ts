import { chmodSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import type { Dexie } from 'dexie';
import { WriteThrough, type CommittedChanges } from './sqlite-write-through.ts';

/**
 * Durable storage for the Node host. The live store stays the in-memory IndexedDB (fake-indexeddb);
 * every committed read-write transaction is also written, as the current rows it touched, to one
 * SQLite transaction before Dexie acknowledges it; on start SQLite is loaded back into memory.
 */
export interface PersistentStore {
  /** Closes the Dexie db, then the SQLite file once writes still in flight have been stored. */
  close(): void;
  /** rows per table, for diagnostics */
  stats(): Record<string, number>;
}

/** Opens `db` (not yet opened) backed by the SQLite file at `filePath`: installs the
 *  write-through middleware, opens the Dexie db, loads every stored row back into it.
 *  Throws a clear Error if another process holds the file. */
export async function openPersistentDatabase(db: Dexie, filePath: string): Promise<PersistentStore> {
  if (db.isOpen()) throw new Error('openPersistentDatabase needs a database that is not open yet');
  const sqlite = openLocked(filePath);
  let closing = false;
  const writeThrough = new WriteThrough({
    commit: rowWriter(sqlite),
    idle: () => {
      if (closing) sqlite.close();
    },
  });
  try {
    db.use(writeThrough.middleware);
    await db.open();
    await loadRows(db, sqlite);
  } catch (error) {
    db.close();
    sqlite.close();
    throw error;
  }
  return {
    close() {
      if (closing) return;
      closing = true;
      db.close();
      if (writeThrough.inFlight === 0) sqlite.close();
    },
    stats() {
      const counts = Object.fromEntries(db.tables.map((table) => [table.name, 0]));
      const rows = sqlite.prepare('SELECT tbl, count(*) AS n FROM records GROUP BY tbl').all();
      for (const { tbl, n } of rows) counts[String(tbl)] = Number(n);
      return counts;
    },
  };
}

/**
 * The file holds API keys and password hashes: it is made readable by its owner only before
 * SQLite opens it (SQLite gives its write-ahead log the same permissions).
 */
function restrictToOwner(filePath: string): void {
  try {
    writeFileSync(filePath, '', { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    chmodSync(filePath, 0o600);
  }
}

function openLocked(filePath: string): DatabaseSync {
  restrictToOwner(filePath);
  // timeout 0: a file held by another process fails at once instead of waiting for it.
  const sqlite = new DatabaseSync(filePath, { timeout: 0 });
  try {
    // Set before WAL: the lock is then held until close and no shared-memory index is used.
    sqlite.exec('PRAGMA locking_mode = EXCLUSIVE');
    sqlite.exec('PRAGMA journal_mode = WAL');
    // FULL: each commit is fsynced before the write is acknowledged, so it survives power loss
    // and OS crashes, not only a killed process (NORMAL would be enough for kill -9).
    sqlite.exec('PRAGMA synchronous = FULL');
    // Takes the exclusive lock now rather than at the first write.
    sqlite.exec('BEGIN EXCLUSIVE; COMMIT');
    sqlite.exec(
      'CREATE TABLE IF NOT EXISTS records (tbl TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (tbl, key))',
    );
  } catch (error) {
    sqlite.close();
    if (isBusy(error)) throw new Error(`${filePath} is in use by another Offline Realm process`, { cause: error });
    throw error;
  }
  return sqlite;
}

function isBusy(error: unknown): boolean {
  return error instanceof Error && 'errcode' in error && (error.errcode === 5 || error.errcode === 6);
}

function rowWriter(sqlite: DatabaseSync): (changes: CommittedChanges) => void {
  const upsert = sqlite.prepare(
    'INSERT INTO records (tbl, key, value) VALUES (?, ?, ?) ON CONFLICT (tbl, key) DO UPDATE SET value = excluded.value',
  );
  const remove = sqlite.prepare('DELETE FROM records WHERE tbl = ? AND key = ?');
  return (changes) => {
    if (changes.size === 0) return;
    try {
      sqlite.exec('BEGIN');
      for (const [table, rows] of changes) {
        for (const [key, value] of rows) {
          if (value === null) remove.run(table, key);
          else upsert.run(table, key, value);
        }
      }
      sqlite.exec('COMMIT');
    } catch (error) {
      // IndexedDB has already committed what SQLite could not store; acknowledging it would
      // promise durability we do not have, and carrying on would let memory and disk diverge.
      console.error('offline-realm: could not persist a committed transaction, exiting', error);
      process.exit(1);
    }
  };
}

/**
 * fake-indexeddb dequeues requests with Array.shift(), so one transaction's cost grows with the
 * square of its queue: loading in chunks keeps it linear (100k messages: 3.8 s instead of 6.7 s).
 */
const LOAD_CHUNK_ROWS = 5_000;

/** Loads every stored row through the raw IndexedDB connection, so nothing is written back. */
async function loadRows(db: Dexie, sqlite: DatabaseSync): Promise<void> {
  const idb = db.backendDB();
  for (const { tbl } of sqlite.prepare('SELECT DISTINCT tbl FROM records').all()) {
    if (!idb.objectStoreNames.contains(String(tbl))) {
      throw new Error(`stored rows belong to table ${String(tbl)}, which the schema does not have`);
    }
  }
  const storeNames = [...idb.objectStoreNames];
  let trans: IDBTransaction | null = null;
  let loaded = 0;
  for (const { tbl, value } of sqlite.prepare('SELECT tbl, value FROM records').iterate()) {
    trans ??= idb.transaction(storeNames, 'readwrite');
    trans.objectStore(String(tbl)).put(JSON.parse(String(value)));
    if (++loaded % LOAD_CHUNK_ROWS === 0) {
      await completion(trans);
      trans = null;
    }
  }
  if (trans) await completion(trans);
}

function completion(trans: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    trans.oncomplete = () => resolve();
    trans.onabort = () => reject(trans.error ?? new Error('loading the stored rows was aborted'));
  });
}
