import { chmodSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import type { Dexie } from 'dexie';
import { sqliteDBCore } from './sqlite-dbcore/sqlite-dbcore.ts';

/**
 * The Node host's storage on disk: the Dexie database runs on the SQLite file itself (see
 * docs/NODE-STORAGE.md), so memory does not grow with the realm and a start reads nothing ahead.
 */
export interface PersistentStore {
  /** Closes the Dexie db, then the SQLite file once transactions still in flight have finished. */
  close(): void;
  /** rows per table, for diagnostics */
  stats(): Record<string, number>;
}

/**
 * Opens `db` (not yet opened) on the SQLite file at `filePath`. A file written by the earlier
 * write-through format (one `records` table) is converted once, on its first open.
 * Throws a clear Error if another process holds the file.
 */
export async function openPersistentDatabase(db: Dexie, filePath: string): Promise<PersistentStore> {
  if (db.isOpen()) throw new Error('openPersistentDatabase needs a database that is not open yet');
  const sqlite = openLocked(filePath);
  return attachSqlite(db, sqlite);
}

/**
 * Opens `db` on an open SQLite connection (a file, or `:memory:` for tests). The connection is
 * closed with the store.
 */
export async function attachSqlite(db: Dexie, sqlite: DatabaseSync): Promise<PersistentStore> {
  const core = sqliteDBCore(sqlite);
  let closing = false;
  try {
    db.use(core.middleware);
    await db.open();
    await convertWriteThroughRecords(db, sqlite);
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
      core.scheduler.whenWritesDone(() => sqlite.close());
    },
    stats() {
      return Object.fromEntries(
        db.tables.map((table) => [table.name, Number(sqlite.prepare(`SELECT count(*) AS n FROM "r:${table.name}"`).get()!.n)]),
      );
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
    // Pages read stay cached up to 32 MiB (the default is 2 MiB), outside the JS heap.
    sqlite.exec('PRAGMA cache_size = -32768');
    // After a checkpoint the write-ahead log is cut back to 64 MiB instead of keeping its
    // largest size (a scenario load or a conversion writes a lot at once).
    sqlite.exec('PRAGMA journal_size_limit = 67108864');
    // Takes the exclusive lock now rather than at the first write.
    sqlite.exec('BEGIN EXCLUSIVE; COMMIT');
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

/** Rows converted per transaction: bounded memory however large the old file is. */
const CONVERT_CHUNK_ROWS = 5_000;

/**
 * The earlier format kept every row as JSON in `records (tbl, key, value)`. Its rows are put
 * through Dexie in chunks, then the table is dropped: a conversion cut short is simply done
 * again at the next start (a put of the same row is idempotent).
 */
async function convertWriteThroughRecords(db: Dexie, sqlite: DatabaseSync): Promise<void> {
  const found = sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'records'").get();
  if (!found) return;
  const names = new Set(db.tables.map((table) => table.name));
  for (const { tbl } of sqlite.prepare('SELECT DISTINCT tbl FROM records').all()) {
    if (!names.has(String(tbl))) throw new Error(`stored rows belong to table ${String(tbl)}, which the schema does not have`);
  }
  const chunk = sqlite.prepare('SELECT tbl, key, value FROM records WHERE (tbl, key) > (?, ?) ORDER BY tbl, key LIMIT ?');
  for (let after = ['', '']; ; ) {
    const rows = chunk.all(after[0]!, after[1]!, CONVERT_CHUNK_ROWS);
    if (rows.length === 0) break;
    const byTable = new Map<string, unknown[]>();
    for (const row of rows) {
      const table = String(row.tbl);
      if (!byTable.has(table)) byTable.set(table, []);
      byTable.get(table)!.push(JSON.parse(String(row.value)));
    }
    await db.transaction('rw', [...byTable.keys()], async () => {
      for (const [table, values] of byTable) await db.table(table).bulkPut(values);
    });
    const last = rows.at(-1)!;
    after = [String(last.tbl), String(last.key)];
  }
  sqlite.exec('DROP TABLE records');
}
