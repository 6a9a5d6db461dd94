import { requireOwner } from './caller-kinds.ts';
import { badRequest } from '../errors/api-error.ts';
import { type RealmPermission, realmPermissionGroup } from './realm-permissions.ts';
import type { UserRow } from '../storage/rows.ts';
import { configuredAnnouncementChannelId, webPublicChannelsEnabled } from './realm-channel-settings.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { isInGroupSetting } from './system-groups.ts';

/** The realm's own value of the setting (an administrator may have changed it), else upstream's default. */
const inRealmGroup = (user: UserRow, setting: RealmPermission, directory: RealmDirectory) =>
  isInGroupSetting(user, realmPermissionGroup(directory.realm, setting), directory.groups);

/**
 * The channel privacy a user may choose (upstream's can_create_*_channel_group realm
 * settings): making a channel public, private or web-public needs the matching permission.
 */
export function checkMayChoosePrivacy(user: UserRow, privacy: { inviteOnly: boolean; isWebPublic: boolean }, directory: RealmDirectory): void {
  const setting = privacy.inviteOnly ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
  if (!inRealmGroup(user, setting, directory)) throw badRequest('Insufficient permission');
  if (privacy.isWebPublic) {
    if (!webPublicChannelsEnabled(directory.realm)) throw badRequest('Web-public channels are not enabled.');
    if (!inRealmGroup(user, 'can_create_web_public_channel_group', directory)) throw badRequest('Insufficient permission');
  }
}

/** A channel's topics policy other than `inherit` is for the realm's can_set_topics_policy_group. */
export function checkMaySetTopicsPolicy(user: UserRow, policy: string, directory: RealmDirectory): void {
  if (policy !== 'inherit' && !inRealmGroup(user, 'can_set_topics_policy_group', directory)) {
    throw badRequest('Insufficient permission');
  }
}

/** Message retention is for organization owners. */
export function checkMaySetRetention(user: UserRow): void {
  requireOwner(user);
}

/**
 * Where new channels are announced: the realm's setting, or (unset, as in a new upstream realm)
 * its first default channel; never an archived channel.
 */
export function announcementChannelId(directory: RealmDirectory): number | null {
  const id = configuredAnnouncementChannelId(directory.realm);
  if (id === null) return null;
  const channel = directory.channels.get(id);
  return channel && !channel.is_archived ? id : null;
}
