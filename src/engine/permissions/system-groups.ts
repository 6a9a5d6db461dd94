import type { GroupSettingValue, UserGroupRow, UserRow } from '../storage/rows.ts';

/**
 * Upstream's role-based system groups, with fixed ids. Membership follows the user's role
 * (owners are administrators, and so on), so it is computed rather than stored.
 */
export const SYSTEM_GROUPS = [
  { id: 1, name: 'role:nobody', description: 'Nobody', maxRole: 0 },
  { id: 2, name: 'role:owners', description: 'Owners of this organization', maxRole: 100 },
  { id: 3, name: 'role:administrators', description: 'Administrators of this organization, including owners', maxRole: 200 },
  { id: 4, name: 'role:moderators', description: 'Moderators of this organization, including administrators', maxRole: 300 },
  { id: 5, name: 'role:fullmembers', description: 'Members of this organization, not including new accounts and guests', maxRole: 400 },
  { id: 6, name: 'role:members', description: 'Members of this organization, not including guests', maxRole: 400 },
  { id: 7, name: 'role:everyone', description: 'Everyone in this organization, including guests', maxRole: 600 },
  { id: 8, name: 'role:internet', description: 'Everyone on the internet', maxRole: 600 },
] as const;

export const GROUP_NOBODY = 1;
export const GROUP_OWNERS = 2;
export const GROUP_ADMINISTRATORS = 3;
export const GROUP_MODERATORS = 4;
export const GROUP_FULL_MEMBERS = 5;
export const GROUP_MEMBERS = 6;
export const GROUP_EVERYONE = 7;
export const FIRST_USER_GROUP_ID = SYSTEM_GROUPS.length + 1;

/** Whether `user` belongs to the group-setting value (a group id, or members and subgroups). */
export function isInGroupSetting(
  user: Pick<UserRow, 'id' | 'role' | 'is_active'>,
  value: GroupSettingValue,
  groups: ReadonlyMap<number, UserGroupRow>,
): boolean {
  if (!user.is_active) return false;
  if (typeof value === 'number') return isInGroup(user, value, groups, new Set());
  if (value.direct_members.includes(user.id)) return true;
  return value.direct_subgroups.some((id) => isInGroup(user, id, groups, new Set()));
}

function isInGroup(
  user: Pick<UserRow, 'id' | 'role'>,
  groupId: number,
  groups: ReadonlyMap<number, UserGroupRow>,
  seen: Set<number>,
): boolean {
  const system = SYSTEM_GROUPS.find((g) => g.id === groupId);
  if (system) return user.role <= system.maxRole;
  if (seen.has(groupId)) return false;
  seen.add(groupId);
  const group = groups.get(groupId);
  if (!group || group.deactivated) return false;
  if (group.direct_members.includes(user.id)) return true;
  return group.direct_subgroup_ids.some((id) => isInGroup(user, id, groups, seen));
}

/** Every user id in a group (recursively), among `users`. */
export function groupMemberIds(
  groupId: number,
  users: Iterable<UserRow>,
  groups: ReadonlyMap<number, UserGroupRow>,
): number[] {
  const members: number[] = [];
  for (const user of users) if (user.is_active && isInGroup(user, groupId, groups, new Set())) members.push(user.id);
  return members;
}
