import { reportPresence, userPresence } from '../actions/presence.ts';
import { realmPresence } from '../wire/presence-wire.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, int, str } from '../http/param-types.ts';

/**
 * Presence: report the caller's status (and poll everyone's), or read it for the realm or one
 * user. `server_timestamp` is the request's time in whole seconds, as in presence events.
 */
export const presenceEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/users/me/presence',
    auth: 'human',
    params: {
      status: str(),
      ping_only: bool().default(false),
      new_user_input: bool().default(false),
      slim_presence: bool().default(false),
      last_update_id: int().optional(),
      history_limit_days: int().optional(),
    },
    async write(scope, params) {
      // Passing `last_update_id` asks for the modern format.
      const query = {
        slim: params.slim_presence || params.last_update_id !== undefined,
        lastUpdateId: params.last_update_id,
        historyLimitDays: params.history_limit_days,
      };
      const data = await reportPresence(scope, { status: params.status, query: params.ping_only ? null : query });
      return data ? { ...data, server_timestamp: scope.now } : {};
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/realm/presence',
    params: {},
    async read(scope) {
      const { presences } = await realmPresence(scope.db, scope.directory, scope.caller, scope.now, { slim: false });
      return { presences, server_timestamp: scope.now };
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/users/{user_id}/presence',
    // Legacy format only: upstream never gave this endpoint `slim_presence`.
    params: { user_id: str() },
    async read(scope, params) {
      return { presence: await userPresence(scope, params.user_id) };
    },
  }),
];
