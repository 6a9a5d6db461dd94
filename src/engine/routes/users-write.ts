import { z } from 'zod';
import { type ProfileDataEntry, setOwnProfileData } from '../actions/profile-fields.ts';
import { deactivateOwnUser, deactivateUser, reactivateUser, updateUser } from '../actions/users.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { intList, intValue, json, listOf, str, stringValue, VAR } from '../http/param-types.ts';
import type { Role } from '../storage/rows.ts';

const ROLES = [100, 200, 300, 400, 600];
const MAX_DEACTIVATION_COMMENT_LENGTH = 2000;

/** `[{id, value}]`: a value is a string, a list of user ids (person pickers), or null to clear. */
const profileData = () =>
  json(
    listOf(
      z.strictObject({
        id: intValue(),
        value: z.union([stringValue(), listOf(intValue()), z.null()], {
          error: (issue) => (issue.input === undefined ? `${VAR} is missing` : `${VAR} is not a string`),
        }),
      }),
    ),
  );

/** Administration of users (spec 4.4, 4.11, 4.18), reactivation, and the caller's own profile data. */
export const usersWriteEndpoints = [
  defineEndpoint({
    method: 'PATCH',
    path: '/users/{user_id}',
    params: {
      user_id: str(),
      full_name: str().optional(),
      role: json(intValue().refine((role) => ROLES.includes(role), { error: `Invalid ${VAR}` })).optional(),
      profile_data: profileData().optional(),
      new_email: str().optional(),
    },
    async write(scope, params) {
      await updateUser(scope, {
        userKey: params.user_id,
        fullName: params.full_name,
        role: params.role as Role | undefined,
        profileData: params.profile_data as ProfileDataEntry[] | undefined,
        newEmail: params.new_email,
      });
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/users/{user_id}',
    params: {
      user_id: str(),
      deactivation_notification_comment: str().max(MAX_DEACTIVATION_COMMENT_LENGTH).optional(),
    },
    async write(scope, params) {
      await deactivateUser(scope, { userKey: params.user_id, notificationComment: params.deactivation_notification_comment });
      return {};
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/users/{user_id}/reactivate',
    params: { user_id: str() },
    async write(scope, params) {
      await reactivateUser(scope, params.user_id);
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/users/me',
    params: {},
    async write(scope) {
      await deactivateOwnUser(scope);
      return {};
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/users/me/profile_data',
    // Custom profile data is personal to humans, as upstream's `human_users_only`.
    auth: 'human',
    params: { data: profileData() },
    async write(scope, params) {
      await setOwnProfileData(scope, params.data as ProfileDataEntry[]);
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/users/me/profile_data',
    auth: 'human',
    params: { data: intList() },
    async write(scope, params) {
      await setOwnProfileData(scope, params.data.map((id) => ({ id, value: null })));
      return {};
    },
  }),
];
