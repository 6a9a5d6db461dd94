import { ApiError } from '../errors/api-error.ts';
import type { RealmDatabase } from './database.ts';

/**
 * Whether this database is a sync replica's (it holds a checkpoint, docs/SYNC.md). What the
 * server does by itself when its time comes, such as delivering scheduled messages, its hub
 * does: the result comes back in a pull. Done here too, it would be a second copy no one pushes.
 */
export async function isReplicaDatabase(db: RealmDatabase): Promise<boolean> {
  return (await db.sync_replica.count()) > 0;
}

/**
 * What a replica's engine answers a write only the hub may do (creating a channel gives it an id
 * only the hub can give). The replica chooses beforehand which writes go to the hub; this is for
 * one that changed under that choice (a page renamed the channel it names), and the replica then
 * sends the write to the hub instead. No client sees it.
 */
export const HUB_ONLY_WRITE = 'SYNC_HUB_ONLY_WRITE';

export async function refuseOnReplica(db: RealmDatabase): Promise<void> {
  if (await isReplicaDatabase(db)) throw new ApiError('Only the hub may do this', { code: HUB_ONLY_WRITE, status: 409 });
}
