import type { Table } from 'dexie';
import type { ZodSafeParseResult } from 'zod';
import type { EngineServices } from '../services/engine-services.ts';
import { asWriteInFlight } from '../services/run-action.ts';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  archiveEnvelope,
  type RealmArchive,
  realmArchiveSchema,
} from './realm-archive-schema.ts';
import { jsonPath } from '../scenario/scenario-schema.ts';
import type { UserMessageRow } from '../storage/rows.ts';
import { archivedUserMessage, importedUserMessages, orphanUserMessage } from './archive-user-messages.ts';

export { ARCHIVE_FORMAT, ARCHIVE_VERSION, type RealmArchive } from './realm-archive-schema.ts';

/** A refused archive, located by the JSON path of its first fault (`$.tables.users[3].email`). */
export class RealmArchiveError extends Error {
  readonly path: string;
  constructor(path: string, detail: string) {
    super(`${path}: ${detail}`);
    this.path = path;
  }
}

/**
 * A sync replica's link to its hub (its checkpoint, its changes not yet pushed, the hub's
 * refusals to show): kept with the link, which no archive carries. A replica's archive imported
 * elsewhere is a realm of its own, which delivers its scheduled messages itself; with these rows
 * it would take itself for a replica and wait for a hub it has no address of.
 */
const REPLICA_LINK_TABLES = new Set(['sync_replica', 'sync_outbox', 'sync_refusals']);

/**
 * The whole realm, every row of every table as stored (but for the columns user_messages rows
 * copy from their message, which an import derives again, and a replica's link to its hub),
 * read in one consistent snapshot.
 */
export async function exportRealm(engine: EngineServices): Promise<RealmArchive> {
  const tables = await engine.db.transaction('r', engine.db.tables, async (tx) => {
    // Tables taken from `tx`, not the database: every read stays inside this one snapshot.
    const rows = await Promise.all(engine.db.tables.map((table) => (REPLICA_LINK_TABLES.has(table.name) ? [] : tx.table(table.name).toArray())));
    return Object.fromEntries(engine.db.tables.map((table, index) => [table.name, rows[index]]));
  });
  tables.user_messages = (tables.user_messages as UserMessageRow[]).map(archivedUserMessage);
  return {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    exported_at: new Date(engine.clock.now()).toISOString(),
    tables: tables as RealmArchive['tables'],
  };
}

/**
 * Replaces the whole realm with an archive's. The archive is validated in full before anything
 * is written (format and version, every row's columns, unique keys), then written in one
 * transaction: a refused or failed import leaves the realm as it was. Event queues end after
 * the commit, as after a scenario load: their clients re-register and see the new realm.
 */
export async function importRealm(engine: EngineServices, input: unknown, options: ImportOptions = {}): Promise<void> {
  const archive = options.madeByBuild ? builtArchive(input) : parseRealmArchive(input);
  const tables = engine.db.tables;
  for (const table of tables) {
    if (!(table.name in archive.tables)) throw new RealmArchiveError('$.tables', `the archive has no table "${table.name}"`);
    checkUniqueKeys(table, archive.tables[table.name as keyof RealmArchive['tables']]);
  }
  const orphan = orphanUserMessage(archive.tables.user_messages, archive.tables.messages);
  if (orphan >= 0) {
    throw new RealmArchiveError(`$.tables.user_messages[${orphan}]`, `message ${archive.tables.user_messages[orphan].message_id} is not in the archive`);
  }
  const rows = { ...archive.tables, user_messages: importedUserMessages(archive.tables.user_messages, archive.tables.messages) };
  await asWriteInFlight(engine.db, () => engine.db.transaction('rw', tables, async (tx) => {
    await Promise.all(tables.map((table) => tx.table(table.name).clear()));
    // All tables' writes issued at once: the transaction runs them in order either way, and a
    // browser's IndexedDB then needs no round trip per table (~35 of them).
    await Promise.all(tables.map((table) => tx.table(table.name).bulkAdd(rows[table.name as keyof RealmArchive['tables']])));
  }));
  engine.queues.close();
  // The archive carries uploads' (and custom emoji's and exports') metadata, not their bytes: the files it names stay if this
  // server holds them (an archive of this same realm), the rest go.
  const emojiFiles = archive.tables.realm_emoji.flatMap((row) => (typeof row.path_id === 'string' ? [row.path_id] : []));
  const exportFiles = archive.tables.realm_exports.flatMap((row) => (row.path_id === null ? [] : [row.path_id]));
  await engine.uploads.retainOnly(new Set([...archive.tables.attachments.map((row) => row.path_id), ...emojiFiles, ...exportFiles]));
  // The archive's pending scheduled messages replace the old ones' timer.
  engine.scheduler.wake();
}

export interface ImportOptions {
  /**
   * The archive is one this project's build exported from an engine (build/prebuilt-realms.ts,
   * `/scenarios/NAME.realm.json`): its rows are the engine's own, checked when the build loaded
   * the scenario. Only its format and version are checked (and unique keys, as always), which
   * takes the rows' validation (~40 ms quiet, ~150 ms busy) off a browser's first visit.
   */
  madeByBuild?: boolean;
}

function builtArchive(input: unknown): RealmArchive {
  checked(archiveEnvelope.safeParse(input));
  const { tables } = input as { tables?: unknown };
  if (typeof tables !== 'object' || tables === null || !Object.values(tables).every(Array.isArray)) {
    throw new RealmArchiveError('$.tables', 'must map each table to its rows');
  }
  return input as RealmArchive;
}

function parseRealmArchive(input: unknown): RealmArchive {
  // Format and version first: a newer archive must be refused for its version, not its rows.
  checked(archiveEnvelope.safeParse(input));
  return checked(realmArchiveSchema.safeParse(input));
}

function checked<T>(result: ZodSafeParseResult<T>): T {
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new RealmArchiveError(jsonPath(issue.path), issue.message);
}

/** Duplicate primary or unique keys would only fail inside the write, with Dexie's bare error; name the row instead. */
function checkUniqueKeys(table: Table, rows: readonly Record<string, unknown>[]): void {
  const keyPaths = [table.schema.primKey, ...table.schema.indexes.filter((index) => index.unique)].map((index) => index.keyPath);
  for (const keyPath of keyPaths) {
    const seen = new Set<string>();
    for (const [index, row] of rows.entries()) {
      const key = JSON.stringify(Array.isArray(keyPath) ? keyPath.map((part) => row[part]) : row[keyPath ?? '']);
      if (seen.has(key)) {
        throw new RealmArchiveError(`$.tables.${table.name}[${index}]`, `duplicate ${[keyPath].flat().join('+')} ${key}`);
      }
      seen.add(key);
    }
  }
}
