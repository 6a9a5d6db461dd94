import type { RealmDatabase } from './database.ts';

/**
 * Whether this database is a sync replica's (it holds a checkpoint, docs/SYNC.md). What the
 * server does by itself when its time comes, such as delivering scheduled messages, its hub
 * does: the result comes back in a pull. Done here too, it would be a second copy no one pushes.
 */
export async function isReplicaDatabase(db: RealmDatabase): Promise<boolean> {
  return (await db.sync_replica.count()) > 0;
}
