import { readSnapshot } from '../services/run-action.ts';
import type { EngineServices } from '../services/engine-services.ts';
import { ApiError } from '../errors/api-error.ts';
import { verifyPassword } from './passwords.ts';

const authenticationFailed = () =>
  new ApiError('Your username or password is incorrect', { code: 'AUTHENTICATION_FAILED', status: 401 });

/**
 * POST /fetch_api_key: the API key of the account an email and password name. The account is
 * read in a snapshot and the password verified after it, outside any transaction: a read
 * transaction awaiting WebCrypto would commit early (Dexie's PrematureCommit).
 */
export async function fetchApiKey(
  engine: EngineServices,
  username: string,
  password: string,
): Promise<{ api_key: string; email: string; user_id: number }> {
  const emailKey = username.trim().toLowerCase();
  const user = await readSnapshot(engine, (db) => db.users.where('email_key').equals(emailKey).first());
  if (!user?.password_hash || !(await verifyPassword(password, user.password_hash))) {
    throw authenticationFailed();
  }
  if (!user.is_active) {
    throw new ApiError('Account is deactivated', { code: 'USER_DEACTIVATED', status: 401 });
  }
  return { api_key: user.api_key, email: user.email, user_id: user.id };
}
