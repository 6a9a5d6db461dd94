import type { ReadScope } from '../services/action-scope.ts';
import { userByKey } from '../actions/users.ts';
import { badRequest } from '../errors/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, str } from '../http/param-types.ts';
import { loadProfileData, type ProfileDataIndex, userToWire } from '../wire/user-wire.ts';
import type { UserRow } from '../storage/rows.ts';

/** `client_gravatar` is accepted for compatibility; our avatars are never gravatars (wire/avatars.ts). */
const userObjectParams = {
  client_gravatar: bool().default(true),
  include_custom_profile_fields: bool().default(false),
};

/** `profileData` null: the user objects go without `profile_data`. */
function format(scope: ReadScope, target: UserRow, profileData: ProfileDataIndex | null): Record<string, unknown> {
  return userToWire(target, scope.directory.realm, {
    viewer: scope.caller,
    includeProfileData: profileData !== null,
    profileData: profileData ?? undefined,
    avatarUrlOptional: false,
  });
}

const profileDataIf = (wanted: boolean, scope: ReadScope) => (wanted ? loadProfileData(scope.db) : null);

export const usersReadEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/users',
    params: userObjectParams,
    async read(scope, params) {
      const users = await scope.db.users.toArray();
      const profileData = await profileDataIf(params.include_custom_profile_fields, scope);
      return {
        members: users
          .filter((u) => !u.is_system_bot)
          .sort((a, b) => a.id - b.id)
          .map((u) => format(scope, u, profileData)),
      };
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/users/me',
    params: {},
    async read(scope) {
      const uid = scope.caller.id;
      const newest = await scope.db.user_messages
        .where('[user_id+message_id]')
        .between([uid, 0], [uid, Infinity])
        .last();
      const { bot_type, ...user } = format(scope, scope.caller, await loadProfileData(scope.db));
      // Upstream's own-user answer names a bot type only for bots (get-own-user lists no null).
      return { ...user, ...(scope.caller.is_bot && { bot_type }), max_message_id: newest?.message_id ?? -1 };
    },
  }),
  /**
   * GET /users/{id} or, when the segment is not a number, GET /users/{email} (spec 4.22): both
   * share one route, since they share the one path shape. System bots are found too.
   */
  defineEndpoint({
    method: 'GET',
    path: '/users/{user_id}',
    params: { user_id: str(), ...userObjectParams },
    async read(scope, params) {
      const user = userByKey(scope.directory, scope.caller, params.user_id);
      if (!user) throw badRequest('No such user');
      return { user: format(scope, user, await profileDataIf(params.include_custom_profile_fields, scope)) };
    },
  }),
];
