import type { Engine } from '../../engine/engine.ts';
import type { RealmSummary } from '../protocol/relay-protocol.ts';

/** The realm's name and its people with their API keys (the console's demo credentials). */
export async function realmSummary(engine: Engine): Promise<RealmSummary> {
  const realm = await engine.realm();
  const users = await engine.db.users.orderBy('id').toArray();
  return {
    realmName: realm.name,
    host: realm.host,
    users: users
      .filter((user) => user.is_active && !user.is_system_bot)
      .map((user) => ({
        id: user.id,
        email: user.email,
        fullName: user.full_name,
        role: user.role,
        isBot: user.is_bot,
        apiKey: user.api_key,
      })),
  };
}
