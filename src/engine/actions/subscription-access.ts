import { badRequest } from '../errors/api-error.ts';
import { REALM_PERMISSION_GROUPS } from '../permissions/realm-permissions.ts';
import { canSeeChannelMetadata } from '../permissions/channel-visibility.ts';
import { hasContentAccess } from '../permissions/channel-audience.ts';
import { userByVisibleEmail } from '../permissions/email-visibility.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { isInGroupSetting } from '../permissions/system-groups.ts';
import { ROLE_ADMIN, ROLE_GUEST, type ChannelRow, type UserRow } from '../storage/rows.ts';

/** Users named by `principals`: ids (preferred) or API emails, as upstream's bulk lookup reads them. */
export type Principals = number[] | string[];

/**
 * The users `principals` names, each once. Unknown users (system bots belong to no realm) and
 * real emails the caller may not see are "No such user"; deactivated users are refused too
 * (spec 4.12: 400 BAD_REQUEST since feature level 208).
 */
export function resolvePrincipals(directory: RealmDirectory, caller: UserRow, principals: Principals): UserRow[] {
  const users = new Map<number, UserRow>();
  for (const principal of principals) {
    const user = typeof principal === 'number' ? directory.users.get(principal) : userByVisibleEmail(directory, caller, principal);
    if (!user || user.is_system_bot) throw badRequest('No such user');
    if (!user.is_active) throw badRequest('User is deactivated');
    users.set(user.id, user);
  }
  return [...users.values()];
}

/**
 * Whether the caller may subscribe users to the channel at all (upstream's content access for
 * adding subscribers): it is open to them, or, for a private channel they are not in, they
 * belong to its `can_add_subscribers_group`. Archived channels take no subscribers.
 */
export function canReachChannel(caller: UserRow, channel: ChannelRow, callerSubscribed: boolean, directory: RealmDirectory): boolean {
  if (channel.is_archived) return false;
  if (hasContentAccess(caller, channel, callerSubscribed)) return true;
  return caller.role !== ROLE_GUEST && isInGroupSetting(caller, channel.can_add_subscribers_group, directory.groups);
}

/**
 * Whether the caller may add other users to a channel whose content they can access:
 * administrators, the realm's `can_add_subscribers_group`, and the channel's administrators
 * and `can_add_subscribers_group`. Guests never may.
 */
export function canAddSubscribers(caller: UserRow, channel: ChannelRow, directory: RealmDirectory): boolean {
  if (caller.role === ROLE_GUEST) return false;
  if (caller.role <= ROLE_ADMIN) return true;
  const { groups } = directory;
  return (
    isInGroupSetting(caller, REALM_PERMISSION_GROUPS.can_add_subscribers_group, groups) ||
    isInGroupSetting(caller, channel.can_administer_channel_group, groups) ||
    isInGroupSetting(caller, channel.can_add_subscribers_group, groups)
  );
}

/**
 * The three rules for unsubscribing someone else (spec 4.12): organization administrators
 * always; the owner of a bot, for channels the owner can access; and anyone who can access
 * the channel and belongs to its `can_remove_subscribers_group` (or administers it).
 */
export function canUnsubscribe(
  caller: UserRow,
  target: UserRow,
  channel: ChannelRow,
  callerSubscribed: boolean,
  directory: RealmDirectory,
): boolean {
  if (target.id === caller.id || caller.role <= ROLE_ADMIN) return true;
  if (!canSeeChannelMetadata(caller, channel, callerSubscribed)) return false;
  if (target.is_bot && target.bot_owner_id === caller.id) return true;
  if (caller.role === ROLE_GUEST) return false;
  const { groups } = directory;
  return (
    isInGroupSetting(caller, channel.can_remove_subscribers_group, groups) ||
    isInGroupSetting(caller, channel.can_administer_channel_group, groups)
  );
}
