import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { RealmRow } from '../storage/rows.ts';

/** This server supports web-public channels wherever the realm lets spectators in. */
export const webPublicChannelsEnabled = (realm: RealmRow): boolean => realm.enable_spectator_access === true;

/**
 * Whether unauthenticated spectators may read the realm (upstream's
 * `allow_web_public_streams_access`): spectators are let in and there is a web-public channel.
 */
export const spectatorsAdmitted = (directory: RealmDirectory): boolean =>
  webPublicChannelsEnabled(directory.realm) && [...directory.channels.values()].some((c) => c.is_web_public && !c.is_archived);

/** The realm's announcement channel setting, the first default channel standing in while it is unset. */
export function configuredAnnouncementChannelId(realm: RealmRow): number | null {
  if (realm.new_stream_announcements_stream_id !== undefined) return realm.new_stream_announcements_stream_id;
  return realm.default_channel_ids[0] ?? null;
}
