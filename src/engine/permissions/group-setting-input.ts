import { ApiError, badRequest } from '../errors/api-error.ts';
import type { GroupSettingValue } from '../storage/rows.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { GROUP_EVERYONE, GROUP_NOBODY } from './system-groups.ts';

const GROUP_INTERNET = 8;

/**
 * Resolves a requested value the way upstream stores it: an empty collection is the "nobody"
 * group and a lone subgroup is that group. Unknown users or groups are refused, and so are the
 * system groups a setting may not use (never `role:internet`; `role:everyone` only where
 * guests may hold the permission).
 */
export function resolveGroupSetting(
  value: GroupSettingValue,
  setting: string,
  allowEveryone: boolean,
  directory: RealmDirectory,
): GroupSettingValue {
  const checkGroup = (groupId: number) => {
    const group = directory.groups.get(groupId);
    if (!group || group.deactivated) throw badRequest(`Invalid user group ID: ${groupId}`);
    if (groupId === GROUP_INTERNET || (groupId === GROUP_EVERYONE && !allowEveryone)) {
      throw badRequest(`'${setting}' setting cannot be set to '${group.name}' group.`);
    }
  };
  if (typeof value === 'number') {
    checkGroup(value);
    return value;
  }
  for (const userId of value.direct_members) {
    const user = directory.users.get(userId);
    if (!user || user.is_system_bot || !user.is_active) throw badRequest(`Invalid user ID: ${userId}`);
  }
  value.direct_subgroups.forEach(checkGroup);
  return normalizeGroupSetting(value);
}

/** The stored form of a value: an empty collection is "nobody", a lone subgroup is that group. */
export function normalizeGroupSetting(value: GroupSettingValue): GroupSettingValue {
  if (typeof value === 'number') return value;
  const members = [...new Set(value.direct_members)].sort((a, b) => a - b);
  const subgroups = [...new Set(value.direct_subgroups)].sort((a, b) => a - b);
  if (members.length === 0 && subgroups.length === 0) return GROUP_NOBODY;
  if (members.length === 0 && subgroups.length === 1) return subgroups[0];
  return { direct_members: members, direct_subgroups: subgroups };
}

const sameIds = (x: readonly number[], y: readonly number[]) => {
  const ys = new Set(y);
  return new Set(x).size === ys.size && x.every((id) => ys.has(id));
};

export function sameGroupSetting(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  return sameIds(a.direct_members, b.direct_members) && sameIds(a.direct_subgroups, b.direct_subgroups);
}

/** Upstream's optimistic check: the `old` value given (normalized) must be the current one. */
export function expectGroupSetting(current: GroupSettingValue, expected: GroupSettingValue | undefined): void {
  if (expected !== undefined && !sameGroupSetting(current, expected)) {
    throw new ApiError("'old' value does not match the expected value.", { code: 'EXPECTATION_MISMATCH' });
  }
}
