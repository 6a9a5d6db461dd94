import type { ReadScope } from '../services/action-scope.ts';
import { userByKey } from '../actions/users.ts';
import { badRequest } from '../errors/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, str } from '../http/param-types.ts';
import { keptProfileData, loadProfileData, type ProfileDataIndex, userToWire } from '../wire/user-wire.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { UserRow } from '../storage/rows.ts';

/** `client_gravatar` is accepted for compatibility; our avatars are never gravatars (wire/avatars.ts). */
const userObjectParams = {
  client_gravatar: bool().default(true),
  include_custom_profile_fields: bool().default(false),
};

/** What formatting users needs: a snapshot's scope, or the caches' (`fromMemory`). */
type UsersView = Pick<ReadScope, 'directory' | 'caller'>;

/** `profileData` null: the user objects go without `profile_data`. */
function format(scope: UsersView, target: UserRow, profileData: ProfileDataIndex | null): Record<string, unknown> {
  return userToWire(target, scope.directory.realm, {
    viewer: scope.caller,
    includeProfileData: profileData !== null,
    profileData: profileData ?? undefined,
    avatarUrlOptional: false,
  });
}

const profileDataIf = (wanted: boolean, db: RealmDatabase) => (wanted ? loadProfileData(db) : null);
/** As `profileDataIf`, from the caches: undefined when wanted and not kept. */
const keptProfileDataIf = (wanted: boolean, caches: RealmDatabase) => (wanted ? keptProfileData(caches) : null);

function members(scope: UsersView, profileData: ProfileDataIndex | null): Record<string, unknown> {
  const users = [...scope.directory.users.values()].filter((u) => !u.is_system_bot).sort((a, b) => a.id - b.id);
  return { members: users.map((u) => format(scope, u, profileData)) };
}

/** Upstream's own-user answer names a bot type only for bots (get-own-user lists no null). */
function ownUser(scope: UsersView, profileData: ProfileDataIndex, newest: number): Record<string, unknown> {
  const { bot_type, ...user } = format(scope, scope.caller, profileData);
  return { ...user, ...(scope.caller.is_bot && { bot_type }), max_message_id: newest };
}

function oneUser(scope: UsersView, key: string, profileData: ProfileDataIndex | null): Record<string, unknown> {
  const user = userByKey(scope.directory, scope.caller, key);
  if (!user) throw badRequest('No such user');
  return { user: format(scope, user, profileData) };
}

// These reads answer from the engine's caches when they are current (`fromMemory`): a client's
// polling of its own user or the user list then costs no transaction.
export const usersReadEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/users',
    params: userObjectParams,
    async read(scope, params) {
      return members(scope, await profileDataIf(params.include_custom_profile_fields, scope.db));
    },
    fromMemory(scope, params) {
      const profileData = keptProfileDataIf(params.include_custom_profile_fields, scope.caches);
      return profileData === undefined ? undefined : members(scope, profileData);
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/users/me',
    params: {},
    async read(scope) {
      const uid = scope.caller.id;
      const { newestReceived } = scope.db;
      const generation = newestReceived.readStarts();
      const newest = (await scope.db.user_messages.where('[user_id+message_id]').between([uid, 0], [uid, Infinity]).last())?.message_id ?? -1;
      newestReceived.remember(uid, newest, generation);
      return ownUser(scope, await loadProfileData(scope.db), newest);
    },
    fromMemory(scope) {
      const profileData = keptProfileData(scope.caches);
      const newest = scope.caches.newestReceived.peek(scope.caller.id);
      return profileData && newest !== undefined ? ownUser(scope, profileData, newest) : undefined;
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
      return oneUser(scope, params.user_id, await profileDataIf(params.include_custom_profile_fields, scope.db));
    },
    fromMemory(scope, params) {
      const profileData = keptProfileDataIf(params.include_custom_profile_fields, scope.caches);
      return profileData === undefined ? undefined : oneUser(scope, params.user_id, profileData);
    },
  }),
];
