import type { RealmDatabase } from '../storage/database.ts';

export interface MutedUserWire {
  id: number;
  timestamp: number;
}

/** The users a user has muted, in the order they were muted. */
export async function mutedUsersOf(db: RealmDatabase, userId: number): Promise<MutedUserWire[]> {
  const rows = await db.muted_users.where('user_id').equals(userId).toArray();
  return rows
    .sort((a, b) => a.date_muted - b.date_muted || a.muted_user_id - b.muted_user_id)
    .map((row) => ({ id: row.muted_user_id, timestamp: row.date_muted }));
}
