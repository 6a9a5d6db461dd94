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
 * What a replica's engine answers a write only the hub may do: creating a channel (only the hub
 * gives ids), moving a message whose channel the replica no longer holds (only the hub knows its
 * rules). The replica chooses beforehand which writes go to the hub; this is for one it could not
 * tell (a page renamed the channel it names since), and the replica then sends the write to the
 * hub instead. No client sees it.
 */
export const HUB_ONLY_WRITE = 'SYNC_HUB_ONLY_WRITE';

export async function refuseOnReplica(db: RealmDatabase): Promise<void> {
  if (await isReplicaDatabase(db)) throw new ApiError('Only the hub may do this', { code: HUB_ONLY_WRITE, status: 409 });
}
