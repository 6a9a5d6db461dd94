import { ApiError, badRequest } from '../errors/api-error.ts';
import type { EngineServices } from '../services/engine-services.ts';
import { readSnapshot } from '../services/run-action.ts';

/**
 * POST /dev_fetch_api_key: upstream's development-server login, by email alone. Anyone who can
 * reach the server could take any account with it, so it answers only where the realm's
 * scenario turns it on (`enable_dev_login`, off by default); elsewhere it answers as upstream's
 * production server does.
 */
export async function devFetchApiKey(engine: EngineServices, username: string): Promise<{ api_key: string; email: string; user_id: number }> {
  const emailKey = username.trim().toLowerCase();
  const { realm, user } = await readSnapshot(engine, async (db) => ({
    realm: await db.realm.get(1),
    user: await db.users.where('email_key').equals(emailKey).first(),
  }));
  if (realm?.enable_dev_login !== true) throw badRequest('Endpoint not available in production.');
  if (!/^[^\s@]+@[^\s@]+$/.test(emailKey)) throw badRequest('Enter a valid email address.');
  if (!user || user.is_system_bot) throw new ApiError('Your username or password is incorrect', { code: 'AUTHENTICATION_FAILED', status: 401 });
  if (!user.is_active) throw new ApiError('Account is deactivated', { code: 'USER_DEACTIVATED', status: 401 });
  return { api_key: user.api_key, email: user.email, user_id: user.id };
}
