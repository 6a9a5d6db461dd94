import { z } from 'zod';
import { type ProfileDataEntry, setProfileData } from '../actions/profile-fields.ts';
import { runAction } from '../actions/run-action.ts';
import { deactivateOwnUser, deactivateUser, reactivateUser, updateUser } from '../actions/users.ts';
import { badRequest } from '../http/api-error.ts';
import { defineEndpoint, type RequestContext } from '../http/endpoint.ts';
import { intList, intValue, json, listOf, str, stringValue, VAR } from '../http/param-types.ts';
import { RealmDirectory } from '../lib/realm-directory.ts';
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

/** Custom profile data is personal to humans, as upstream's `human_users_only`. */
function humanCaller(ctx: RequestContext): void {
  if (ctx.user.is_bot) throw badRequest('This endpoint does not accept bot requests.');
}

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
    async handler(ctx, params) {
      await runAction(ctx.engine, (scope) =>
        updateUser(scope, ctx.user.id, params.user_id, {
          fullName: params.full_name,
          role: params.role as Role | undefined,
          profileData: params.profile_data as ProfileDataEntry[] | undefined,
          newEmail: params.new_email,
        }),
      );
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
    async handler(ctx, params) {
      await runAction(ctx.engine, (scope) =>
        deactivateUser(scope, ctx.user.id, params.user_id, params.deactivation_notification_comment),
      );
      return {};
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/users/{user_id}/reactivate',
    params: { user_id: str() },
    async handler(ctx, params) {
      await runAction(ctx.engine, (scope) => reactivateUser(scope, ctx.user.id, params.user_id));
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/users/me',
    params: {},
    async handler(ctx) {
      await runAction(ctx.engine, (scope) => deactivateOwnUser(scope, ctx.user.id));
      return {};
    },
  }),

  defineEndpoint({
    method: 'PATCH',
    path: '/users/me/profile_data',
    params: { data: profileData() },
    async handler(ctx, params) {
      humanCaller(ctx);
      await runAction(ctx.engine, async (scope) => {
        const directory = await RealmDirectory.load(scope.db);
        const user = directory.user(ctx.user.id);
        await setProfileData(scope, directory, user, user, params.data as ProfileDataEntry[]);
      });
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/users/me/profile_data',
    params: { data: intList() },
    async handler(ctx, params) {
      humanCaller(ctx);
      await runAction(ctx.engine, async (scope) => {
        const directory = await RealmDirectory.load(scope.db);
        const user = directory.user(ctx.user.id);
        await setProfileData(scope, directory, user, user, params.data.map((id) => ({ id, value: null })));
      });
      return {};
    },
  }),
];
