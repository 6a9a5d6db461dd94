import { runAction } from '../actions/run-action.ts';
import {
  accessUserGroup,
  createUserGroup,
  MAX_GROUP_DESCRIPTION_LENGTH,
  requireMemberOrAdmin,
  updateGroupMembers,
  updateUserGroup,
} from '../actions/user-groups.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, intList, json, pathId, str } from '../http/param-types.ts';
import { directMemberIds, listableUsers, userGroupList } from '../initial-state/user-groups.ts';
import { groupSettingValue } from '../lib/group-setting-input.ts';
import { RealmDirectory } from '../lib/realm-directory.ts';
import { groupMemberIds } from '../lib/system-groups.ts';

const groupSettingParam = () => json(groupSettingValue());

const description = () => str().max(MAX_GROUP_DESCRIPTION_LENGTH);

export const userGroupEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/user_groups',
    params: { include_deactivated_groups: bool().default(false) },
    async handler(ctx, params) {
      requireMemberOrAdmin(ctx.user);
      const directory = await RealmDirectory.load(ctx.engine.db);
      return { user_groups: userGroupList(directory, params.include_deactivated_groups) };
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/user_groups/create',
    params: {
      name: str(),
      description: description(),
      members: intList(),
      subgroups: intList().default([]),
      can_add_members_group: groupSettingParam().optional(),
      can_join_group: groupSettingParam().optional(),
      can_leave_group: groupSettingParam().optional(),
      can_manage_group: groupSettingParam().optional(),
      can_mention_group: groupSettingParam().optional(),
      can_remove_members_group: groupSettingParam().optional(),
    },
    async handler(ctx, { name, description, members, subgroups, ...settings }) {
      const defined = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
      const groupId = await runAction(ctx.engine, (scope) =>
        createUserGroup(scope, ctx.user, { name, description, members, subgroups, settings: defined }),
      );
      return { group_id: groupId };
    },
  }),
  defineEndpoint({
    method: 'PATCH',
    path: '/user_groups/{user_group_id}',
    params: { user_group_id: pathId(), name: str().optional(), description: description().optional() },
    async handler(ctx, params) {
      await runAction(ctx.engine, (scope) =>
        updateUserGroup(scope, ctx.user, params.user_group_id, { name: params.name, description: params.description }),
      );
      return {};
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/user_groups/{user_group_id}/members',
    params: { user_group_id: pathId(), direct_member_only: bool().default(false) },
    async handler(ctx, params) {
      requireMemberOrAdmin(ctx.user);
      const directory = await RealmDirectory.load(ctx.engine.db);
      const group = accessUserGroup(directory, params.user_group_id);
      const users = listableUsers(directory);
      const members = params.direct_member_only
        ? directMemberIds(group, users)
        : groupMemberIds(group.id, users, directory.groups).sort((a, b) => a - b);
      return { members };
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/user_groups/{user_group_id}/members',
    params: {
      user_group_id: pathId(),
      add: intList().default([]),
      delete: intList().default([]),
      add_subgroups: intList().default([]),
      delete_subgroups: intList().default([]),
    },
    async handler(ctx, params) {
      await runAction(ctx.engine, (scope) =>
        updateGroupMembers(scope, ctx.user, params.user_group_id, {
          add: params.add,
          delete: params.delete,
          addSubgroups: params.add_subgroups,
          deleteSubgroups: params.delete_subgroups,
        }),
      );
      return {};
    },
  }),
];
