import { groupSettingToWire } from './channel-wire.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import {
  GROUP_ADMINISTRATORS,
  GROUP_EVERYONE,
  GROUP_FULL_MEMBERS,
  GROUP_MEMBERS,
  GROUP_MODERATORS,
  GROUP_NOBODY,
  GROUP_OWNERS,
  SYSTEM_GROUPS,
} from '../permissions/system-groups.ts';
import type { GroupSettingValue, Role, UserGroupRow, UserRow } from '../storage/rows.ts';

const GROUP_INTERNET = SYSTEM_GROUPS.find((g) => g.name === 'role:internet')!.id;

/**
 * Upstream's role groups nest: each holds the users of exactly one role directly, and the
 * next more privileged group as a subgroup (administrators contain owners, and so on).
 */
const SYSTEM_GROUP_SHAPE = new Map<number, { role: Role | null; subgroup: number | null }>([
  [GROUP_NOBODY, { role: null, subgroup: null }],
  [GROUP_OWNERS, { role: 100, subgroup: null }],
  [GROUP_ADMINISTRATORS, { role: 200, subgroup: GROUP_OWNERS }],
  [GROUP_MODERATORS, { role: 300, subgroup: GROUP_ADMINISTRATORS }],
  [GROUP_FULL_MEMBERS, { role: 400, subgroup: GROUP_MODERATORS }],
  [GROUP_MEMBERS, { role: null, subgroup: GROUP_FULL_MEMBERS }],
  [GROUP_EVERYONE, { role: 600, subgroup: GROUP_MEMBERS }],
  [GROUP_INTERNET, { role: null, subgroup: GROUP_EVERYONE }],
]);

export const GROUP_PERMISSION_SETTINGS = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;
export type GroupPermissionSetting = (typeof GROUP_PERMISSION_SETTINGS)[number];

/**
 * Upstream's settings for a new user group: its creator manages it and adds members, it is
 * open to leave, closed to join, anyone may mention it, and nobody else removes members.
 */
export function newGroupDefaults(creatorId: number | null): Record<GroupPermissionSetting, GroupSettingValue> {
  const creator: GroupSettingValue = { direct_members: creatorId === null ? [] : [creatorId], direct_subgroups: [] };
  return {
    can_add_members_group: creator,
    can_join_group: GROUP_NOBODY,
    can_leave_group: GROUP_EVERYONE,
    can_manage_group: creator,
    can_mention_group: GROUP_EVERYONE,
    can_remove_members_group: GROUP_NOBODY,
  };
}

/** A group's permission settings in effect: nobody manages a system group; unset ones take the defaults. */
export function groupSettings(group: UserGroupRow): Record<GroupPermissionSetting, GroupSettingValue> {
  if (group.is_system_group) {
    return {
      can_add_members_group: GROUP_NOBODY,
      can_join_group: GROUP_NOBODY,
      can_leave_group: GROUP_NOBODY,
      can_manage_group: GROUP_NOBODY,
      can_mention_group: group.can_mention_group,
      can_remove_members_group: GROUP_NOBODY,
    };
  }
  const settings = newGroupDefaults(group.creator_id);
  for (const name of GROUP_PERMISSION_SETTINGS) {
    const stored = group[name];
    if (stored !== undefined) settings[name] = stored;
  }
  return settings;
}

/** Users a group lists: active, and never the built-in system bots. */
export const listableUsers = (directory: RealmDirectory): UserRow[] =>
  [...directory.users.values()].filter((u) => u.is_active && !u.is_system_bot);

/** A group's direct members among `users`: a role group's are the users of its one role. */
export function directMemberIds(group: UserGroupRow, users: readonly UserRow[]): number[] {
  const shape = group.is_system_group ? SYSTEM_GROUP_SHAPE.get(group.id) : undefined;
  const members = shape
    ? users.filter((u) => u.role === shape.role).map((u) => u.id)
    : group.direct_members.filter((id) => users.some((u) => u.id === id));
  return members.sort((a, b) => a - b);
}

export function directSubgroupIds(group: UserGroupRow): number[] {
  const shape = group.is_system_group ? SYSTEM_GROUP_SHAPE.get(group.id) : undefined;
  if (shape) return shape.subgroup === null ? [] : [shape.subgroup];
  return [...group.direct_subgroup_ids];
}

/** The user group object of GET /user_groups, `realm_user_groups` and `user_group` add events. */
export function userGroupToWire(group: UserGroupRow, users: readonly UserRow[]): Record<string, unknown> {
  const settings = groupSettings(group);
  const wire: Record<string, unknown> = {
    id: group.id,
    name: group.name,
    description: group.description,
    members: directMemberIds(group, users),
    direct_subgroup_ids: directSubgroupIds(group),
    is_system_group: group.is_system_group,
    date_created: group.date_created,
    creator_id: group.creator_id,
    deactivated: group.deactivated,
  };
  for (const name of GROUP_PERMISSION_SETTINGS) wire[name] = groupSettingToWire(settings[name]);
  return wire;
}

/** Every group in id order; deactivated ones only when asked for. */
export function userGroupList(directory: RealmDirectory, includeDeactivated: boolean): Record<string, unknown>[] {
  const users = listableUsers(directory);
  return [...directory.groups.values()]
    .filter((g) => includeDeactivated || !g.deactivated)
    .sort((a, b) => a.id - b.id)
    .map((g) => userGroupToWire(g, users));
}
