import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { UserRow, UserStatusRow } from '../storage/rows.ts';
import { sharesPresence } from './presence-wire.ts';

export interface UserStatusWire {
  away?: true;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: UserStatusRow['reaction_type'];
}

/**
 * A status as upstream sends it: only what is set. `away` is the deprecated view of the
 * user's `presence_enabled` setting (away = presence off).
 */
export function userStatusToWire(row: UserStatusRow, user: UserRow): UserStatusWire {
  const wire: UserStatusWire = {};
  if (!sharesPresence(user)) wire.away = true;
  if (row.status_text !== '') wire.status_text = row.status_text;
  if (row.emoji_name !== '') Object.assign(wire, { emoji_name: row.emoji_name, emoji_code: row.emoji_code, reaction_type: row.reaction_type });
  return wire;
}

/** Every active user's status that says something, keyed by user id (the register section). */
export async function realmUserStatuses(db: RealmDatabase, directory: RealmDirectory): Promise<Record<string, UserStatusWire>> {
  const statuses: Record<string, UserStatusWire> = {};
  for (const row of await db.user_status.toArray()) {
    const user = directory.users.get(row.user_id);
    if (!user?.is_active) continue;
    const wire = userStatusToWire(row, user);
    if (Object.keys(wire).length > 0) statuses[String(row.user_id)] = wire;
  }
  return statuses;
}
