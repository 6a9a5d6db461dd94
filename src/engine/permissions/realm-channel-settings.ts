import type { RealmRow } from '../storage/rows.ts';

/** This server supports web-public channels wherever the realm lets spectators in. */
export const webPublicChannelsEnabled = (realm: RealmRow): boolean => realm.enable_spectator_access === true;

/** The realm's announcement channel setting, the first default channel standing in while it is unset. */
export function configuredAnnouncementChannelId(realm: RealmRow): number | null {
  if (realm.new_stream_announcements_stream_id !== undefined) return realm.new_stream_announcements_stream_id;
  return realm.default_channel_ids[0] ?? null;
}
