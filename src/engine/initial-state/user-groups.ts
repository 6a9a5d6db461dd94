import { groupSettingToWire } from '../lib/channel-wire.ts';
import {
  GROUP_ADMINISTRATORS,
  GROUP_EVERYONE,
  GROUP_FULL_MEMBERS,
  GROUP_MEMBERS,
  GROUP_MODERATORS,
  GROUP_NOBODY,
  GROUP_OWNERS,
  SYSTEM_GROUPS,
} from '../lib/system-groups.ts';
import type { GroupSettingValue, Role, UserGroupRow, UserRow } from '../storage/rows.ts';
import type { StateContext } from './state-context.ts';

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

/** `realm_user_groups`: deactivated groups only for clients that can show them. */
export function userGroupsSection(ctx: StateContext): Record<string, unknown> {
  const users = [...ctx.directory.users.values()].filter((u) => u.is_active && !u.is_system_bot);
  const groups = [...ctx.directory.groups.values()]
    .filter((g) => ctx.capabilities.include_deactivated_groups || !g.deactivated)
    .sort((a, b) => a.id - b.id);
  return { realm_user_groups: groups.map((g) => userGroupToWire(g, users)) };
}

function userGroupToWire(group: UserGroupRow, users: UserRow[]): Record<string, unknown> {
  const shape = group.is_system_group ? SYSTEM_GROUP_SHAPE.get(group.id) : undefined;
  const members = shape
    ? users.filter((u) => u.role === shape.role).map((u) => u.id)
    : group.direct_members.filter((id) => users.some((u) => u.id === id));
  const subgroups = shape ? (shape.subgroup === null ? [] : [shape.subgroup]) : group.direct_subgroup_ids;
  // Only who may mention a group is stored; a group's own management settings take
  // upstream's defaults: its creator manages it, and it is open to leave, not to join.
  const managers: GroupSettingValue = group.is_system_group
    ? GROUP_NOBODY
    : { direct_members: group.creator_id === null ? [] : [group.creator_id], direct_subgroups: [] };
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    members: members.sort((a, b) => a - b),
    direct_subgroup_ids: [...subgroups],
    is_system_group: group.is_system_group,
    date_created: group.date_created,
    creator_id: group.creator_id,
    deactivated: group.deactivated,
    can_add_members_group: groupSettingToWire(managers),
    can_join_group: GROUP_NOBODY,
    can_leave_group: group.is_system_group ? GROUP_NOBODY : GROUP_EVERYONE,
    can_manage_group: groupSettingToWire(managers),
    can_mention_group: groupSettingToWire(group.can_mention_group),
    can_remove_members_group: groupSettingToWire(managers),
  };
}
