import { ApiError, badRequest } from '../errors/api-error.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import { ROLE_MEMBER, type ChannelRow, type UserRow } from '../storage/rows.ts';
import { createUser } from './create-user.ts';
import { subscribeUsers } from './subscriptions.ts';

/** The realm's `password_min_length` / `password_max_length` (register). */
const PASSWORD_MIN_LENGTH = 6;
const PASSWORD_MAX_LENGTH = 100;
const MAX_EMAIL_LENGTH = 254;

/** Upstream's `can_create_users`: a right granted outside the API, on top of being an administrator. */
export function checkMayCreateUsers(caller: UserRow): void {
  if (caller.can_create_users !== true) throw badRequest('User not authorized to create users');
}

/** What upstream's CreateUserForm accepts as an email address. */
export function checkNewUserEmail(email: string): void {
  if (email.length > MAX_EMAIL_LENGTH || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw badRequest('Bad name or username');
}

/** Upstream refuses an address any account of the realm has, deactivated ones included. */
export function checkEmailFree(directory: RealmDirectory, email: string): void {
  if (directory.usersByEmail.has(email.toLowerCase())) throw badRequest(`Email '${email}' already in use`);
}

export function checkPasswordStrength(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) throw new ApiError('The password is too weak.');
  if (password.length > PASSWORD_MAX_LENGTH) throw new ApiError('The password is too long.');
}

/**
 * POST /users: a member account made by an administrator with `can_create_users`, no
 * invitation needed; it joins the default channels as any new account does.
 */
export async function createUserByAdmin(
  scope: CallerScope,
  input: { email: string; fullName: string; passwordHash: string },
): Promise<UserRow> {
  checkMayCreateUsers(scope.caller);
  checkEmailFree(scope.directory, input.email);
  const user = await createUser(scope, { email: input.email, fullName: input.fullName, role: ROLE_MEMBER, passwordHash: input.passwordHash });
  const directory = await RealmDirectory.load(scope.db);
  const channels = directory.realm.default_channel_ids
    .map((id) => directory.channels.get(id))
    .filter((c): c is ChannelRow => c !== undefined && !c.is_archived);
  await subscribeUsers(scope, directory, channels, [user]);
  return user;
}
