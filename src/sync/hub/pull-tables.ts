import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { JournaledNotice, SyncChangeRow } from '../../engine/storage/rows.ts';
import type { TablesRefresh } from '../protocol.ts';
import { ownerIndex, REFRESHED_ROW_TABLES, tablesOf } from '../table-scopes.ts';

/**
 * What a page's `tables` entries naming the caller refresh: the caller's share of their notices
 * (a replica never learns who else was told, nor their own fields) and the caller's current
 * rows of the tables those notices name, scoped as the snapshot scopes them (shared tables
 * whole, personal tables the caller's own rows). `ownRow`: a notice names `users`, whose
 * caller's row the page brings among its users. Null when no entry names the caller.
 */
export async function readTablesRefresh(
  db: RealmDatabase,
  callerId: number,
  page: readonly SyncChangeRow[],
): Promise<{ refresh: TablesRefresh; ownRow: boolean } | null> {
  const notices = page
    .filter((change) => change.kind === 'tables' && change.users?.includes(callerId))
    .flatMap((change) => change.notices ?? [])
    .filter((notice) => notice.users.includes(callerId))
    .map((notice) => shareOf(notice, callerId));
  if (notices.length === 0) return null;
  const named = new Set(notices.flatMap((notice) => tablesOf(notice.event)));
  const rows: TablesRefresh['rows'] = {};
  for (const table of REFRESHED_ROW_TABLES) {
    if (!named.has(table)) continue;
    const index = ownerIndex(table);
    rows[table] = await (index === undefined ? db.table(table).toArray() : db.table(table).where(index).equals(callerId).toArray());
  }
  return { refresh: { rows, notices }, ownRow: named.has('users') };
}

function shareOf(notice: JournaledNotice, callerId: number): JournaledNotice {
  const share: JournaledNotice = { event: notice.event, users: [callerId] };
  const own = notice.per_user?.find(([userId]) => userId === callerId);
  if (own) share.per_user = [own];
  if (notice.empty_topic_display_name !== undefined) share.empty_topic_display_name = notice.empty_topic_display_name;
  return share;
}
