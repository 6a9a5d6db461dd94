import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { SyncHubRow } from '../../engine/storage/rows.ts';

/**
 * The hub's identity and epoch, made on first use. The row lives in the realm's database, so
 * replacing the realm clears it and the next call makes a new epoch.
 */
export async function hubIdentity(db: RealmDatabase): Promise<SyncHubRow> {
  const existing = await db.sync_hub.get(1);
  if (existing) return existing;
  return db.transaction('rw', db.sync_hub, async () => {
    const row = (await db.sync_hub.get(1)) ?? { id: 1 as const, hub_id: crypto.randomUUID(), epoch: crypto.randomUUID() };
    await db.sync_hub.put(row);
    return row;
  });
}

/** The newest change's `seq` (0 before any), read in the caller's transaction. */
export async function currentSeq(db: RealmDatabase): Promise<number> {
  return ((await db.counters.get('sync_change'))?.next ?? 1) - 1;
}
