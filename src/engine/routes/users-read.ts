import { readSnapshot } from '../actions/run-action.ts';
import { badRequest } from '../http/api-error.ts';
import { defineEndpoint, type RequestContext } from '../http/endpoint.ts';
import { bool, str } from '../http/param-types.ts';
import { canSeeRealEmail } from '../lib/email-visibility.ts';
import { RealmDirectory } from '../lib/realm-directory.ts';
import { loadProfileData, type ProfileDataIndex, userToWire } from '../lib/user-wire.ts';
import type { UserRow } from '../storage/rows.ts';

const noSuchUser = () => badRequest('No such user');

/** `client_gravatar` is accepted for compatibility; our avatars are never gravatars (lib/avatars.ts). */
const userObjectParams = {
  client_gravatar: bool().default(true),
  include_custom_profile_fields: bool().default(false),
};

/** `profileData` null: the user objects go without `profile_data`. */
function format(ctx: RequestContext, target: UserRow, profileData: ProfileDataIndex | null): Record<string, unknown> {
  return userToWire(target, ctx.realm, {
    viewer: ctx.user,
    includeProfileData: profileData !== null,
    profileData: profileData ?? undefined,
    avatarUrlOptional: false,
  });
}

const profileDataIf = (wanted: boolean, ctx: RequestContext) => (wanted ? loadProfileData(ctx.engine.db) : null);

/**
 * GET /users/{id} or, when the segment is not a number, GET /users/{email} (spec 4.22): the
 * dummy `user{id}@{host}` address finds anyone, a real email only a user whose real email the
 * caller may see. Both share one route, since they share the one path shape.
 */
function findUser(ctx: RequestContext, directory: RealmDirectory, key: string): UserRow {
  if (/^\d+$/.test(key)) {
    const user = directory.users.get(Number(key));
    if (!user) throw noSuchUser();
    return user;
  }
  const user = directory.userByApiEmail(key);
  if (!user) throw noSuchUser();
  const byRealEmail = user.email_key === key.trim().toLowerCase();
  if (byRealEmail && !canSeeRealEmail(ctx.realm, ctx.user, user)) throw noSuchUser();
  return user;
}

export const usersReadEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/users',
    params: userObjectParams,
    async handler(ctx, params) {
      const users = await ctx.engine.db.users.toArray();
      const profileData = await profileDataIf(params.include_custom_profile_fields, ctx);
      return {
        members: users
          .filter((u) => !u.is_system_bot)
          .sort((a, b) => a.id - b.id)
          .map((u) => format(ctx, u, profileData)),
      };
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/users/me',
    params: {},
    async handler(ctx) {
      const uid = ctx.user.id;
      const newest = await ctx.engine.db.user_messages
        .where('[user_id+message_id]')
        .between([uid, 0], [uid, Infinity])
        .last();
      return { ...format(ctx, ctx.user, await loadProfileData(ctx.engine.db)), max_message_id: newest?.message_id ?? -1 };
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/users/{user_id}',
    params: { user_id: str(), ...userObjectParams },
    async handler(ctx, params) {
      const directory = await readSnapshot(ctx.engine, (db) => RealmDirectory.load(db));
      const user = findUser(ctx, directory, params.user_id);
      return { user: format(ctx, user, await profileDataIf(params.include_custom_profile_fields, ctx)) };
    },
  }),
];
