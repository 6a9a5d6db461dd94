import type { ChannelRow, UserRow } from '../storage/rows.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';

/**
 * Who may see a channel's messages: subscribers always; non-guests also any public channel's.
 * Guests see only channels they are subscribed to.
 */
export function canReadChannel(user: UserRow, channel: ChannelRow, subscribed: boolean): boolean {
  if (subscribed) return true;
  return !channel.invite_only && user.role !== 600;
}

/**
 * Whether a channel message sent before the user subscribed is visible to them: public
 * channels' history is open to non-guests; a private channel's only when it shares history.
 */
export function canReadChannelHistory(user: UserRow, channel: ChannelRow, subscribed: boolean): boolean {
  if (!channel.invite_only) return user.role !== 600 || subscribed;
  return subscribed && channel.history_public_to_subscribers;
}

/**
 * Users whose clients track this channel's metadata (stream events): subscribers, plus every
 * active non-guest for a public channel.
 */
export function channelViewerIds(directory: RealmDirectory, channel: ChannelRow, subscriberIds: Iterable<number>): number[] {
  const viewers = new Set(subscriberIds);
  if (!channel.invite_only) {
    for (const user of directory.users.values()) {
      if (user.is_active && !user.is_system_bot && user.role !== 600) viewers.add(user.id);
    }
  }
  return [...viewers];
}
