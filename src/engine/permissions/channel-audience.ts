import { badRequest } from '../errors/api-error.ts';
import type { RealmDatabase } from '../storage/database.ts';
import { ROLE_ADMIN, ROLE_GUEST, type ChannelRow, type UserRow } from '../storage/rows.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { channelSubscriberIds } from '../directory/cached-reads.ts';
import { isInGroupSetting } from './system-groups.ts';

/** A channel's subscribers among active users, in id order. */
export async function activeSubscriberIds(db: RealmDatabase, directory: RealmDirectory, channelId: number): Promise<number[]> {
  return (await channelSubscriberIds(db, channelId)).filter((id) => directory.users.get(id)?.is_active);
}

/**
 * Users who may know the channel exists and see its settings and subscribers (upstream's
 * metadata access): its subscribers and the administrators always; every member for a public
 * channel; everyone, guests included, for a web-public one.
 */
export function metadataViewerIds(directory: RealmDirectory, channel: ChannelRow, subscriberIds: Iterable<number>): number[] {
  const viewers = new Set(subscriberIds);
  for (const user of directory.users.values()) {
    if (!user.is_active || user.is_system_bot) continue;
    if (channel.is_web_public || user.role <= ROLE_ADMIN || (!channel.invite_only && user.role !== ROLE_GUEST)) viewers.add(user.id);
  }
  return [...viewers].sort((a, b) => a - b);
}

/**
 * Whether the user may read the channel's messages: subscribers, and everyone but guests in a
 * public channel (as canReadChannel; web-public channels are open to guests too).
 */
export function hasContentAccess(user: UserRow, channel: ChannelRow, subscribed: boolean): boolean {
  if (channel.is_web_public || subscribed) return true;
  return user.role !== ROLE_GUEST && !channel.invite_only;
}

function hasMetadataAccess(user: UserRow, channel: ChannelRow, subscribed: boolean, directory: RealmDirectory): boolean {
  if (hasContentAccess(user, channel, subscribed)) return true;
  if (user.role === ROLE_GUEST) return false;
  return user.role <= ROLE_ADMIN || isInGroupSetting(user, channel.can_administer_channel_group, directory.groups);
}

/**
 * Upstream's gate for changing or archiving a channel: organization administrators, and the
 * channel's `can_administer_channel_group` among those who can see the channel. Whoever cannot
 * see it learns nothing more than "Invalid channel ID".
 */
export function checkCanAdministerChannel(user: UserRow, channel: ChannelRow, subscribed: boolean, directory: RealmDirectory): void {
  if (user.role <= ROLE_ADMIN) return;
  const inGroup = user.role !== ROLE_GUEST && isInGroupSetting(user, channel.can_administer_channel_group, directory.groups);
  if (inGroup && hasMetadataAccess(user, channel, subscribed, directory)) return;
  if (hasContentAccess(user, channel, subscribed)) {
    throw badRequest('You do not have permission to administer this channel.');
  }
  throw badRequest('Invalid channel ID');
}
