import { deactivateUserGroup } from '../actions/user-group-deactivation.ts';
import {
  createUserGroup,
  isUserGroupMember,
  listUserGroups,
  MAX_GROUP_DESCRIPTION_LENGTH,
  updateGroupMembers,
  updateGroupSubgroups,
  updateUserGroup,
  userGroupMembers,
  userGroupSubgroups,
} from '../actions/user-groups.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, intList, json, pathId, str } from '../http/param-types.ts';
import { groupSettingValue } from './group-setting-params.ts';

const groupSettingParam = () => json(groupSettingValue());

const description = () => str().max(MAX_GROUP_DESCRIPTION_LENGTH);

export const userGroupEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/user_groups',
    params: { include_deactivated_groups: bool().default(false) },
    async read(scope, params) {
      return { user_groups: listUserGroups(scope, params.include_deactivated_groups) };
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
    async write(scope, { name, description, members, subgroups, ...settings }) {
      const defined = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
      const groupId = await createUserGroup(scope, { name, description, members, subgroups, settings: defined });
      return { group_id: groupId };
    },
  }),
  defineEndpoint({
    method: 'PATCH',
    path: '/user_groups/{user_group_id}',
    params: { user_group_id: pathId(), name: str().optional(), description: description().optional() },
    async write(scope, params) {
      await updateUserGroup(scope, { groupId: params.user_group_id, name: params.name, description: params.description });
      return {};
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/user_groups/{user_group_id}/members',
    params: { user_group_id: pathId(), direct_member_only: bool().default(false) },
    async read(scope, params) {
      return { members: userGroupMembers(scope, { groupId: params.user_group_id, directOnly: params.direct_member_only }) };
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
    async write(scope, params) {
      await updateGroupMembers(scope, {
        groupId: params.user_group_id,
        add: params.add,
        delete: params.delete,
        addSubgroups: params.add_subgroups,
        deleteSubgroups: params.delete_subgroups,
      });
      return {};
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/user_groups/{user_group_id}/members/{user_id}',
    params: { user_group_id: pathId(), user_id: pathId(), direct_member_only: bool().default(false) },
    async read(scope, params) {
      const isMember = isUserGroupMember(scope, {
        groupId: params.user_group_id,
        userId: params.user_id,
        directOnly: params.direct_member_only,
      });
      return { is_user_group_member: isMember };
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/user_groups/{user_group_id}/subgroups',
    params: { user_group_id: pathId(), direct_subgroup_only: bool().default(false) },
    async read(scope, params) {
      return { subgroups: userGroupSubgroups(scope, { groupId: params.user_group_id, directOnly: params.direct_subgroup_only }) };
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/user_groups/{user_group_id}/subgroups',
    params: { user_group_id: pathId(), add: intList().default([]), delete: intList().default([]) },
    async write(scope, params) {
      await updateGroupSubgroups(scope, { groupId: params.user_group_id, add: params.add, delete: params.delete });
      return {};
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/user_groups/{user_group_id}/deactivate',
    params: { user_group_id: pathId() },
    async write(scope, params) {
      await deactivateUserGroup(scope, params.user_group_id);
      return {};
    },
  }),
];
