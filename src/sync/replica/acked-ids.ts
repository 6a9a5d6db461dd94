import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { SyncOutboxRow } from '../../engine/storage/rows.ts';
import { syncedRequest, withFinalIds } from '../mutations.ts';

/** Provisional id -> the hub's id, for the sends the hub acknowledged whose message is not pulled yet. */
export async function ackedIds(db: RealmDatabase): Promise<Map<number, number>> {
  const acked = (await db.sync_outbox.toArray()).filter((row) => row.provisional_id !== undefined && row.final_id !== undefined);
  return new Map(acked.map((row) => [row.provisional_id!, row.final_id!]));
}

/**
 * The change with the provisional ids of acknowledged sends replaced by the hub's ids: the hub
 * forgets a send's record once a later push shows it settled, so a change pushed after the
 * acknowledgement names the hub's id itself. Ids of sends not acknowledged stay provisional.
 */
export function withAckedIds(row: SyncOutboxRow, acked: ReadonlyMap<number, number>): SyncOutboxRow {
  const request = syncedRequest(row.method, row.path, row.params);
  if (typeof request === 'string' || acked.size === 0) return row;
  const translated = withFinalIds(request, (id) => acked.get(id) ?? id);
  return translated ? { ...row, path: translated.path, params: translated.params } : row;
}
