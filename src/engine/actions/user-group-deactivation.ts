/**
 * POST /user_groups/{id}/deactivate, upstream's rules: the caller manages the group (or all
 * groups); a group still in use is refused with every objection (a supergroup that is not
 * deactivated, or a setting of a channel, a group or the realm holding it directly or inside
 * an anonymous group). Everyone hears a `user_group` update with `deactivated: true`.
 */
import { ApiError, badRequest } from '../errors/api-error.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { CHANNEL_GROUP_SETTING_NAMES } from '../permissions/channel-group-settings.ts';
import { REALM_PERMISSION_GROUPS, type RealmPermission, realmPermissionGroup } from '../permissions/realm-permissions.ts';
import type { CallerScope } from '../services/action-scope.ts';
import type { GroupSettingValue, UserGroupRow } from '../storage/rows.ts';
import { GROUP_PERMISSION_SETTINGS, groupSettings } from '../wire/user-group-wire.ts';
import { accessGroupForUpdate, groupEventRecipients, mayManage } from './user-groups.ts';

export async function deactivateUserGroup(scope: CallerScope, groupId: number): Promise<void> {
  const { directory, caller } = scope;
  const group = accessGroupForUpdate(directory, groupId, false);
  if (!mayManage(caller, group, directory)) throw badRequest('Insufficient permission');
  const objections = objectionsTo(directory, group);
  if (objections.length > 0) {
    throw new ApiError('Cannot deactivate user group in use.', { code: 'CANNOT_DEACTIVATE_GROUP_IN_USE', extra: { objections } });
  }
  await scope.db.user_groups.update(group.id, { deactivated: true });
  scope.notify({
    event: { type: 'user_group', op: 'update', group_id: group.id, data: { deactivated: true } },
    users: groupEventRecipients(directory),
  });
}

/** Whether a setting's value is the group itself or an anonymous group with it as a subgroup. */
const holdsGroup = (value: GroupSettingValue, groupId: number): boolean =>
  typeof value === 'number' ? value === groupId : value.direct_subgroups.includes(groupId);

function objectionsTo(directory: RealmDirectory, group: UserGroupRow): Record<string, unknown>[] {
  const objections: Record<string, unknown>[] = [];
  const activeGroups = [...directory.groups.values()].filter((g) => !g.deactivated).sort((a, b) => a.id - b.id);
  const supergroupIds = activeGroups.filter((g) => g.direct_subgroup_ids.includes(group.id)).map((g) => g.id);
  if (supergroupIds.length > 0) objections.push({ type: 'subgroup', supergroup_ids: supergroupIds });
  const channels = [...directory.channels.values()].filter((c) => !c.is_archived).sort((a, b) => a.id - b.id);
  for (const channel of channels) {
    const settings = CHANNEL_GROUP_SETTING_NAMES.filter((name) => holdsGroup(channel[name], group.id));
    if (settings.length > 0) objections.push({ type: 'channel', channel_id: channel.id, settings });
  }
  for (const other of activeGroups) {
    const values = groupSettings(other);
    const settings = GROUP_PERMISSION_SETTINGS.filter((name) => holdsGroup(values[name], group.id));
    if (settings.length > 0) objections.push({ type: 'user_group', group_id: other.id, settings });
  }
  const realmSettings = (Object.keys(REALM_PERMISSION_GROUPS) as RealmPermission[]).filter((name) =>
    holdsGroup(realmPermissionGroup(directory.realm, name), group.id),
  );
  if (realmSettings.length > 0) objections.push({ type: 'realm', settings: realmSettings });
  return objections;
}
