import { sameKey } from '../auth/url-keys.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { badRequest, unauthorized } from '../errors/api-error.ts';
import { spectatorsAdmitted } from '../permissions/realm-channel-settings.ts';
import type { UserRow } from '../storage/rows.ts';

/**
 * The user whose avatar is asked for, if the request may have it, as upstream's: an
 * authenticated caller, a spectator where the realm admits them, or anyone presenting the
 * user's avatar key (`k`), which the avatar URLs clients get carry since an `<img>` element
 * cannot send Basic auth. Without either, the refusal does not tell whether the user exists.
 */
export function avatarOwner(directory: RealmDirectory, caller: UserRow | null, userId: number, key: string | undefined): UserRow {
  const user = directory.users.get(userId);
  const keyed = user?.avatar_key !== undefined && key !== undefined && sameKey(key, user.avatar_key);
  if (!caller && !keyed && !spectatorsAdmitted(directory)) {
    throw unauthorized('Not logged in: API authentication or user session required');
  }
  if (!user) throw badRequest('No such user');
  return user;
}
