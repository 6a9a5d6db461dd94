import { ROLE_ADMIN, ROLE_GUEST, type ChannelRow, type UserRow } from '../storage/rows.ts';

/**
 * Whether a user (null: a spectator) may know a channel exists and read its settings: its
 * subscribers always; spectators and guests otherwise only web-public channels; members any
 * public channel; administrators every channel, as upstream shows them all private channels.
 */
export function canSeeChannelMetadata(user: UserRow | null, channel: ChannelRow, subscribed: boolean): boolean {
  if (subscribed || channel.is_web_public) return true;
  if (!user || user.role === ROLE_GUEST) return false;
  return !channel.invite_only || user.role <= ROLE_ADMIN;
}

/** Whether a user may see who is subscribed to a channel they can see. */
export function canSeeSubscribers(user: UserRow | null, channel: ChannelRow, subscribed: boolean): boolean {
  if (subscribed) return true;
  if (!user) return channel.is_web_public;
  if (user.role === ROLE_GUEST) return false;
  return !channel.invite_only || user.role <= ROLE_ADMIN;
}
