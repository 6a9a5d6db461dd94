import { requireHuman } from '../permissions/caller-kinds.ts';
import { badRequest } from '../errors/api-error.ts';
import { REALM_PERMISSION_GROUPS } from '../permissions/realm-permissions.ts';
import {
  directMemberIds,
  directSubgroupIds,
  type GroupPermissionSetting,
  groupSettings,
  listableUsers,
  newGroupDefaults,
  userGroupList,
  userGroupToWire,
} from '../wire/user-group-wire.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import { resolveGroupSetting } from '../permissions/group-setting-input.ts';
import { groupMemberIds, isInGroupSetting } from '../permissions/system-groups.ts';
import { nextId } from '../storage/database.ts';
import { charLength } from '../validation/message-limits.ts';
import { type GroupSettingValue, ROLE_GUEST, type UserGroupRow, type UserRow } from '../storage/rows.ts';
import type { ActionScope, CallerScope, ReadScope } from '../services/action-scope.ts';
import { sendMessage } from './send-message.ts';

export const MAX_GROUP_NAME_LENGTH = 100;
export const MAX_GROUP_DESCRIPTION_LENGTH = 1024;
/** Prefixes upstream reserves for system groups and mention syntax. */
const RESERVED_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

/** Upstream's `require_member_or_admin`: guests and bots may not use the endpoint. */
export function requireMemberOrAdmin(user: UserRow): void {
  if (user.role === ROLE_GUEST) throw badRequest('Not allowed for guest users');
  requireHuman(user);
}

/** Everyone whose clients track user groups: every active user (the system bots excepted). */
export const groupEventRecipients = (directory: RealmDirectory): number[] => listableUsers(directory).map((u) => u.id);

/** A group named by a path id: "Invalid user group" when it does not exist. */
export function accessUserGroup(directory: RealmDirectory, groupId: number): UserGroupRow {
  const group = directory.groups.get(groupId);
  if (!group) throw badRequest('Invalid user group');
  return group;
}

/** GET /user_groups: every group, deactivated ones only when asked for. */
export function listUserGroups(scope: ReadScope, includeDeactivated: boolean): Record<string, unknown>[] {
  requireMemberOrAdmin(scope.caller);
  return userGroupList(scope.directory, includeDeactivated);
}

/** A group whose membership is read: as upstream, a deactivated one is refused. */
function accessGroupToReadMembership(directory: RealmDirectory, groupId: number): UserGroupRow {
  const group = accessUserGroup(directory, groupId);
  if (group.deactivated) throw badRequest('User group is deactivated.');
  return group;
}

/** GET /user_groups/{id}/members: the direct members, or everyone in the group and its subgroups. */
export function userGroupMembers(scope: ReadScope, { groupId, directOnly }: { groupId: number; directOnly: boolean }): number[] {
  requireMemberOrAdmin(scope.caller);
  const { directory } = scope;
  const group = accessGroupToReadMembership(directory, groupId);
  const users = listableUsers(directory);
  return directOnly ? directMemberIds(group, users) : groupMemberIds(group.id, users, directory.groups).sort((a, b) => a - b);
}

/** GET /user_groups/{id}/subgroups: the direct subgroups, or every group nested below it (never itself). */
export function userGroupSubgroups(scope: ReadScope, { groupId, directOnly }: { groupId: number; directOnly: boolean }): number[] {
  requireMemberOrAdmin(scope.caller);
  const { directory } = scope;
  const group = accessGroupToReadMembership(directory, groupId);
  if (directOnly) return directSubgroupIds(group).sort((a, b) => a - b);
  const found = new Set<number>();
  const pending = directSubgroupIds(group);
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    const subgroup = directory.groups.get(id);
    if (found.has(id) || id === group.id || !subgroup) continue;
    found.add(id);
    pending.push(...directSubgroupIds(subgroup));
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * GET /user_groups/{id}/members/{user_id}: whether the user is a direct member, or a member
 * through any subgroup. The user is looked up as upstream's `access_user_by_id`: no bots, no
 * deactivated users.
 */
export function isUserGroupMember(
  scope: ReadScope,
  { groupId, userId, directOnly }: { groupId: number; userId: number; directOnly: boolean },
): boolean {
  requireMemberOrAdmin(scope.caller);
  const { directory } = scope;
  const group = accessGroupToReadMembership(directory, groupId);
  const user = directory.users.get(userId);
  if (!user || user.is_bot || user.is_system_bot) throw badRequest('No such user');
  if (!user.is_active) throw badRequest('User is deactivated');
  if (directOnly) return directMemberIds(group, [user]).includes(user.id);
  return groupMemberIds(group.id, [user], directory.groups).includes(user.id);
}

/**
 * A group whose settings or membership the caller wants to change: never a system group.
 * Upstream lets a deactivated group's name, description and membership change; deactivating
 * one again is refused.
 */
export function accessGroupForUpdate(directory: RealmDirectory, groupId: number, allowDeactivated = true): UserGroupRow {
  const group = accessUserGroup(directory, groupId);
  if (!allowDeactivated && group.deactivated) throw badRequest('User group is deactivated.');
  if (group.is_system_group) throw badRequest('Insufficient permission');
  return group;
}

function holds(user: UserRow, group: UserGroupRow, setting: GroupPermissionSetting, directory: RealmDirectory): boolean {
  return isInGroupSetting(user, groupSettings(group)[setting], directory.groups);
}

const managesAllGroups = (user: UserRow, directory: RealmDirectory): boolean =>
  isInGroupSetting(user, REALM_PERMISSION_GROUPS.can_manage_all_groups, directory.groups);

export const mayManage = (user: UserRow, group: UserGroupRow, directory: RealmDirectory): boolean =>
  holds(user, group, 'can_manage_group', directory) || managesAllGroups(user, directory);

/** Whether `user` may add others (users or subgroups) to `group`. */
export function mayAddMembers(user: UserRow, group: UserGroupRow, directory: RealmDirectory): boolean {
  return !group.is_system_group && (holds(user, group, 'can_add_members_group', directory) || mayManage(user, group, directory));
}

function mayRemoveMembers(user: UserRow, group: UserGroupRow, directory: RealmDirectory): boolean {
  return holds(user, group, 'can_remove_members_group', directory) || mayManage(user, group, directory);
}

/** Active realm users by id, in the order given and without repeats: "Invalid user ID: N" otherwise. */
function activeUsersByIds(directory: RealmDirectory, ids: readonly number[]): UserRow[] {
  return [...new Set(ids)].map((id) => {
    const user = directory.users.get(id);
    if (!user || user.is_system_bot || !user.is_active) throw badRequest(`Invalid user ID: ${id}`);
    return user;
  });
}

/** Groups named as subgroups: "Invalid user group ID: N" for an unknown one, and never a deactivated one. */
function potentialSubgroups(directory: RealmDirectory, ids: readonly number[]): UserGroupRow[] {
  const groups = [...new Set(ids)].map((id) => {
    const group = directory.groups.get(id);
    if (!group) throw badRequest(`Invalid user group ID: ${id}`);
    return group;
  });
  if (groups.some((group) => group.deactivated)) throw badRequest('User group is deactivated.');
  return groups;
}

function checkGroupName(name: string, directory: RealmDirectory, except?: UserGroupRow): string {
  if (name.trim() === '') throw badRequest("User group name can't be empty!");
  if (charLength(name) > MAX_GROUP_NAME_LENGTH) {
    throw badRequest(`User group name cannot exceed ${MAX_GROUP_NAME_LENGTH} characters.`);
  }
  const prefix = RESERVED_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) throw badRequest(`User group name cannot start with '${prefix}'.`);
  const existing = directory.groupsByName.get(name.toLowerCase());
  if (existing && existing !== except) throw badRequest(`User group '${name}' already exists.`);
  return name;
}

export interface CreateGroupInput {
  name: string;
  description: string;
  members: number[];
  subgroups: number[];
  settings: Partial<Record<GroupPermissionSetting, GroupSettingValue>>;
}

/** POST /user_groups/create: the group, then one `user_group` add event for everyone. */
export async function createUserGroup(scope: CallerScope, input: CreateGroupInput): Promise<number> {
  const { directory, caller: creator } = scope;
  requireMemberOrAdmin(creator);
  if (!isInGroupSetting(creator, REALM_PERMISSION_GROUPS.can_create_groups, directory.groups)) {
    throw badRequest('Insufficient permission');
  }
  const name = checkGroupName(input.name, directory);
  const members = activeUsersByIds(directory, input.members).map((u) => u.id);
  const subgroups = potentialSubgroups(directory, input.subgroups).map((g) => g.id);
  const settings: Partial<Record<GroupPermissionSetting, GroupSettingValue>> = {};
  for (const [setting, value] of Object.entries(input.settings) as [GroupPermissionSetting, GroupSettingValue][]) {
    // As upstream, managing a group is never open to everyone (guests included).
    settings[setting] = resolveGroupSetting(value, setting, setting !== 'can_manage_group', directory);
  }
  const row: UserGroupRow = {
    id: await nextId(scope.db, 'user_group'),
    name,
    name_key: name.toLowerCase(),
    description: input.description,
    is_system_group: false,
    deactivated: false,
    date_created: scope.now,
    creator_id: creator.id,
    direct_members: members,
    direct_subgroup_ids: subgroups,
    ...newGroupDefaults(creator.id),
    ...settings,
  };
  await scope.db.user_groups.add(row);
  scope.notify({
    event: { type: 'user_group', op: 'add', group: userGroupToWire(row, listableUsers(directory)) },
    users: groupEventRecipients(directory),
  });
  return row.id;
}

/** PATCH /user_groups/{id}: name and description, one `user_group` update event per changed property. */
export async function updateUserGroup(
  scope: CallerScope,
  { groupId, ...changes }: { groupId: number; name?: string; description?: string },
): Promise<void> {
  const { directory, caller: actor } = scope;
  requireMemberOrAdmin(actor);
  if (changes.name === undefined && changes.description === undefined) throw badRequest('No new data supplied');
  const group = accessGroupForUpdate(directory, groupId);
  if (!mayManage(actor, group, directory)) throw badRequest('Insufficient permission');
  const data: { name?: string; description?: string } = {};
  if (changes.name !== undefined && changes.name !== group.name) data.name = checkGroupName(changes.name, directory, group);
  if (changes.description !== undefined && changes.description !== group.description) data.description = changes.description;
  if (data.name !== undefined) await scope.db.user_groups.update(group.id, { name: data.name, name_key: data.name.toLowerCase() });
  if (data.description !== undefined) await scope.db.user_groups.update(group.id, { description: data.description });
  const users = groupEventRecipients(directory);
  for (const [property, value] of Object.entries(data)) {
    scope.notify({ event: { type: 'user_group', op: 'update', group_id: group.id, data: { [property]: value } }, users });
  }
}

export interface MembershipChanges {
  groupId: number;
  add: number[];
  delete: number[];
  addSubgroups: number[];
  deleteSubgroups: number[];
}

/**
 * POST /user_groups/{id}/members: adds and removes members and subgroups in one transaction.
 * Joining or leaving oneself follows `can_join_group` / `can_leave_group`; changing others
 * needs the add / remove permission (or managing the group). Members added or removed by
 * someone else hear it from the notification bot, as upstream.
 */
export async function updateGroupMembers(scope: CallerScope, changes: MembershipChanges): Promise<void> {
  requireMemberOrAdmin(scope.caller);
  if ([changes.add, changes.delete, changes.addSubgroups, changes.deleteSubgroups].every((list) => list.length === 0)) {
    throw badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
  }
  await changeMembership(scope, changes);
}

/** POST /user_groups/{id}/subgroups: adds and removes subgroups, as the members endpoint's subgroup lists. */
export async function updateGroupSubgroups(
  scope: CallerScope,
  { groupId, add, delete: remove }: { groupId: number; add: number[]; delete: number[] },
): Promise<void> {
  requireMemberOrAdmin(scope.caller);
  if (add.length === 0 && remove.length === 0) throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  await changeMembership(scope, { groupId, add: [], delete: [], addSubgroups: add, deleteSubgroups: remove });
}

async function changeMembership(scope: CallerScope, changes: MembershipChanges): Promise<void> {
  const { directory, caller: actor } = scope;
  const group = accessGroupForUpdate(directory, changes.groupId);
  const added = activeUsersByIds(directory, changes.add);
  const removed = activeUsersByIds(directory, changes.delete);
  for (const user of added) {
    const allowed = user.id === actor.id && holds(actor, group, 'can_join_group', directory);
    if (!allowed && !mayAddMembers(actor, group, directory)) throw badRequest('Insufficient permission');
    if (group.direct_members.includes(user.id)) throw badRequest(`User ${user.id} is already a member of this group`);
  }
  for (const user of removed) {
    const allowed = user.id === actor.id && holds(actor, group, 'can_leave_group', directory);
    if (!allowed && !mayRemoveMembers(actor, group, directory)) throw badRequest('Insufficient permission');
    if (!group.direct_members.includes(user.id)) throw badRequest(`There is no member '${user.id}' in this user group`);
  }
  const addedSubgroups = checkSubgroupsToAdd(directory, actor, group, changes.addSubgroups);
  // As upstream, removing a subgroup takes managing the group.
  if (changes.deleteSubgroups.length > 0 && !mayManage(actor, group, directory)) throw badRequest('Insufficient permission');
  const removedSubgroups = potentialSubgroups(directory, changes.deleteSubgroups);
  for (const subgroup of removedSubgroups) {
    if (!group.direct_subgroup_ids.includes(subgroup.id)) throw badRequest(`User group ${subgroup.id} is not a subgroup of this group.`);
  }

  const removedIds = new Set(removed.map((u) => u.id));
  const removedSubgroupIds = new Set(removedSubgroups.map((g) => g.id));
  await scope.db.user_groups.update(group.id, {
    direct_members: [...group.direct_members, ...added.map((u) => u.id)].filter((id) => !removedIds.has(id)),
    direct_subgroup_ids: [...group.direct_subgroup_ids, ...addedSubgroups].filter((id) => !removedSubgroupIds.has(id)),
  });
  const users = groupEventRecipients(directory);
  const notify = (op: string, field: string, ids: number[]) => {
    if (ids.length > 0) scope.notify({ event: { type: 'user_group', op, group_id: group.id, [field]: ids }, users });
  };
  notify('add_members', 'user_ids', added.map((u) => u.id));
  notify('remove_members', 'user_ids', [...removedIds]);
  notify('add_subgroups', 'direct_subgroup_ids', addedSubgroups);
  notify('remove_subgroups', 'direct_subgroup_ids', [...removedSubgroupIds]);
  await tellMembers(scope, actor, group, added, 'added you to the group');
  await tellMembers(scope, actor, group, removed, 'removed you from the group');
}

/** Subgroups to add: valid, not already direct subgroups, and never making a cycle. */
function checkSubgroupsToAdd(directory: RealmDirectory, actor: UserRow, group: UserGroupRow, ids: number[]): number[] {
  if (ids.length === 0) return [];
  if (!mayAddMembers(actor, group, directory)) throw badRequest('Insufficient permission');
  const subgroups = potentialSubgroups(directory, ids);
  for (const subgroup of subgroups) {
    if (group.direct_subgroup_ids.includes(subgroup.id)) {
      throw badRequest(`User group ${subgroup.id} is already a subgroup of this group.`);
    }
  }
  if (subgroups.some((subgroup) => containsGroup(directory, subgroup, group.id, new Set()))) {
    throw badRequest(`User group ${group.id} is already a subgroup of one of the passed subgroups.`);
  }
  return subgroups.map((g) => g.id);
}

/** Whether `groupId` is `group` itself or one of its subgroups, at any depth. */
function containsGroup(directory: RealmDirectory, group: UserGroupRow, groupId: number, seen: Set<number>): boolean {
  if (group.id === groupId) return true;
  if (seen.has(group.id)) return false;
  seen.add(group.id);
  return directSubgroupIds(group).some((id) => {
    const subgroup = directory.groups.get(id);
    return subgroup !== undefined && containsGroup(directory, subgroup, groupId, seen);
  });
}

/** A direct message from the notification bot to each human member changed by someone else. */
async function tellMembers(scope: ActionScope, actor: UserRow, group: UserGroupRow, users: UserRow[], what: string): Promise<void> {
  const recipients = users.filter((u) => u.id !== actor.id && !u.is_bot);
  if (recipients.length === 0) return;
  const directory = await RealmDirectory.load(scope.db);
  const bot = directory.realm.notification_bot_id === null ? undefined : directory.users.get(directory.realm.notification_bot_id);
  if (!bot) return;
  for (const user of recipients) {
    await sendMessage(scope, directory, {
      sender: bot,
      to: { kind: 'direct', users: [{ id: user.id }] },
      content: `@_**${actor.full_name}|${actor.id}** ${what} @_*${group.name}*.`,
      client: 'Internal',
    });
  }
}

/** Makes a new user a direct member of each listed group that still accepts members (invitations). */
export async function joinGroups(scope: ActionScope, userId: number, groupIds: readonly number[]): Promise<void> {
  const directory = await RealmDirectory.load(scope.db);
  const users = groupEventRecipients(directory);
  for (const groupId of groupIds) {
    const group = directory.groups.get(groupId);
    if (!group || group.is_system_group || group.deactivated || group.direct_members.includes(userId)) continue;
    await scope.db.user_groups.update(group.id, { direct_members: [...group.direct_members, userId] });
    scope.notify({ event: { type: 'user_group', op: 'add_members', group_id: group.id, user_ids: [userId] }, users });
  }
}
