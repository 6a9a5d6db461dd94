import type { Notice } from '../events/event-types.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { ROLE_GUEST } from '../storage/rows.ts';

/** The realm's default channels as `default_streams` announces them to every member (not guests). */
export function defaultStreamsNotice(directory: RealmDirectory): Notice {
  const members = [...directory.users.values()].filter((u) => u.is_active && !u.is_system_bot && u.role !== ROLE_GUEST);
  return {
    event: { type: 'default_streams', default_streams: [...directory.realm.default_channel_ids] },
    users: members.map((u) => u.id),
  };
}
