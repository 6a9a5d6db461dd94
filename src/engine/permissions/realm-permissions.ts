import type { GroupSettingValue, RealmRow } from '../storage/rows.ts';
import { GROUP_ADMINISTRATORS, GROUP_EVERYONE, GROUP_MEMBERS, GROUP_MODERATORS, GROUP_OWNERS } from './system-groups.ts';

/** The organization's permission group settings, at upstream's defaults for a new realm. */
export const REALM_PERMISSION_GROUPS = {
  can_access_all_users_group: GROUP_EVERYONE,
  can_add_custom_emoji_group: GROUP_MEMBERS,
  can_add_subscribers_group: GROUP_MEMBERS,
  can_create_groups: GROUP_MEMBERS,
  can_create_public_channel_group: GROUP_MEMBERS,
  can_create_private_channel_group: GROUP_MEMBERS,
  can_create_web_public_channel_group: GROUP_OWNERS,
  can_delete_any_message_group: GROUP_ADMINISTRATORS,
  can_delete_own_message_group: GROUP_EVERYONE,
  can_invite_users_group: GROUP_MEMBERS,
  can_manage_all_groups: GROUP_OWNERS,
  can_mention_many_users_group: GROUP_ADMINISTRATORS,
  can_move_messages_between_channels_group: GROUP_MEMBERS,
  can_move_messages_between_topics_group: GROUP_EVERYONE,
  can_resolve_topics_group: GROUP_EVERYONE,
  can_set_topics_policy_group: GROUP_MODERATORS,
  create_multiuse_invite_group: GROUP_ADMINISTRATORS,
  direct_message_initiator_group: GROUP_EVERYONE,
  direct_message_permission_group: GROUP_EVERYONE,
} as const;

export type RealmPermission = keyof typeof REALM_PERMISSION_GROUPS;

/** A realm permission setting: the realm's own value where it stores one, else upstream's default. */
export function realmPermissionGroup(realm: RealmRow, name: RealmPermission): GroupSettingValue {
  return (realm as { [key in RealmPermission]?: GroupSettingValue })[name] ?? REALM_PERMISSION_GROUPS[name];
}
