import { muteUser, unmuteUser } from '../actions/muted-users.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { pathId } from '../http/param-types.ts';

/** Muting and unmuting another user. */
export const mutedUserEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/users/me/muted_users/{muted_user_id}',
    params: { muted_user_id: pathId() },
    async write(scope, params) {
      await muteUser(scope, params.muted_user_id);
      return {};
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/users/me/muted_users/{muted_user_id}',
    params: { muted_user_id: pathId() },
    async write(scope, params) {
      await unmuteUser(scope, params.muted_user_id);
      return {};
    },
  }),
];
