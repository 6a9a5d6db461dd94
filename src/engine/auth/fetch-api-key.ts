import { readSnapshot } from '../services/run-action.ts';
import type { EngineServices } from '../services/engine-services.ts';
import { ApiError } from '../errors/api-error.ts';
import { PASSWORD_MAX_LENGTH, unmatchableHash, verifyPassword } from './passwords.ts';

const authenticationFailed = () =>
  new ApiError('Your username or password is incorrect', { code: 'AUTHENTICATION_FAILED', status: 401 });

/**
 * POST /fetch_api_key: the API key of the account an email and password name. The account is
 * read in a snapshot and the password verified after it, outside any transaction: a read
 * transaction awaiting WebCrypto would commit early (Dexie's PrematureCommit).
 *
 * Attempts are rate-limited first (services/login-limits.ts). A password longer than any the
 * realm accepts is refused unhashed; every other is hashed, against an unmatchable hash when
 * the account does not exist or has no password, so the answer's time does not tell which
 * accounts exist.
 */
export async function fetchApiKey(
  engine: EngineServices,
  credentials: { username: string; password: string; clientAddress: string | null },
): Promise<{ api_key: string; email: string; user_id: number }> {
  const { username, password } = credentials;
  engine.loginLimits.admit(username, credentials.clientAddress);
  if (password.length > PASSWORD_MAX_LENGTH) throw authenticationFailed();
  const emailKey = username.trim().toLowerCase();
  const user = await readSnapshot(engine, (db) => db.users.where('email_key').equals(emailKey).first());
  const stored = user?.password_hash ?? unmatchableHash(engine.passwordIterations);
  if (!(await verifyPassword(password, stored)) || !user) throw authenticationFailed();
  if (!user.is_active) {
    throw new ApiError('Account is deactivated', { code: 'USER_DEACTIVATED', status: 401 });
  }
  engine.loginLimits.succeeded(username);
  return { api_key: user.api_key, email: user.email, user_id: user.id };
}
