import type { Notice } from '../../engine/events/event-types.ts';
import type { ActionScope } from '../../engine/services/action-scope.ts';
import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { JournaledNotice } from '../../engine/storage/rows.ts';
import type { TablesRefresh } from '../protocol.ts';
import { ownerIndex, REFRESHED_ROW_TABLES, type RefreshedTable, tablesOf } from '../table-scopes.ts';

/**
 * A page's personal and shared rows (`tables`), replaced in the page's transaction, and the
 * hub's events of them told to the local queues (docs/SYNC.md, replica rule 4). An event is
 * told only when a table it names changed here, so the same rows twice tell nothing: the rows
 * a replica holds are compared before the page and after it.
 */

/** The replica's rows of the tables a page refreshes, read before the page's users are applied (the own `users` row among them). */
export type HeldTables = Map<RefreshedTable, string>;

export async function heldTables(db: RealmDatabase, me: number, refresh: TablesRefresh | undefined): Promise<HeldTables> {
  const held: HeldTables = new Map();
  if (!refresh) return held;
  for (const table of namedTables(refresh)) held.set(table, await readRows(db, me, table));
  return held;
}

export async function refreshTables(scope: ActionScope, me: number, held: HeldTables, refresh: TablesRefresh | undefined): Promise<void> {
  if (!refresh) return;
  const { db } = scope;
  for (const table of REFRESHED_ROW_TABLES) {
    const rows = refresh.rows[table];
    if (!rows) continue;
    const index = ownerIndex(table);
    // Only the user's own rows of a personal table, whatever a hub sends.
    const kept = index === undefined ? rows : rows.filter((row) => row[index] === me);
    await (index === undefined ? db.table(table).clear() : db.table(table).where(index).equals(me).delete());
    await db.table(table).bulkPut(kept);
  }
  const changed = new Set<RefreshedTable>();
  for (const [table, before] of held) if ((await readRows(db, me, table)) !== before) changed.add(table);
  for (const notice of refresh.notices) {
    if (notice.users.includes(me) && tablesOf(notice.event).some((table) => changed.has(table))) scope.notify(localNotice(notice, me));
  }
}

function namedTables(refresh: TablesRefresh): Set<RefreshedTable> {
  const named = new Set<RefreshedTable>(refresh.notices.flatMap((notice) => tablesOf(notice.event)));
  for (const table of REFRESHED_ROW_TABLES) if (refresh.rows[table]) named.add(table);
  return named;
}

/** The user's rows of a table as comparable text (keys sorted: the same rows may come with their keys in another order). */
async function readRows(db: RealmDatabase, me: number, table: RefreshedTable): Promise<string> {
  if (table === 'users') return canonicalJson(await db.users.get(me));
  const index = ownerIndex(table);
  return canonicalJson(await (index === undefined ? db.table(table).toArray() : db.table(table).where(index).equals(me).toArray()));
}

const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, field: unknown) =>
    field !== null && typeof field === 'object' && !Array.isArray(field)
      ? Object.fromEntries(Object.entries(field).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : field,
  ) ?? '';

function localNotice(notice: JournaledNotice, me: number): Notice {
  const own = notice.per_user?.filter(([userId]) => userId === me);
  return {
    event: notice.event,
    users: [me],
    ...(own?.length ? { perUser: new Map(own) } : {}),
    ...(notice.empty_topic_display_name !== undefined ? { emptyTopicDisplayName: notice.empty_topic_display_name } : {}),
  };
}
