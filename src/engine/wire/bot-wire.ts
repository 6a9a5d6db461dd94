import type { RealmDirectory } from '../directory/realm-directory.ts';
import { ROLE_ADMIN, type UserRow } from '../storage/rows.ts';
import { avatarUrl } from './avatars.ts';

/**
 * A bot as `realm_bots` lists it to those who may administer it (upstream's Bot object). No
 * outgoing-webhook services or default channels are kept here: those fields are their empties.
 */
export function botToWire(bot: UserRow): Record<string, unknown> {
  return {
    user_id: bot.id,
    full_name: bot.full_name,
    api_key: bot.api_key,
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    avatar_url: avatarUrl(bot),
    owner_id: bot.bot_owner_id,
    services: [],
    email: bot.email,
    bot_type: bot.bot_type,
    is_active: bot.is_active,
  };
}

/** Who administers a bot, as upstream's `bot_owner_user_ids`: its owner and the realm's administrators. */
export function botAdministratorIds(directory: RealmDirectory, bot: UserRow): number[] {
  const ids = [...directory.users.values()].filter((user) => user.is_active && !user.is_bot && user.role <= ROLE_ADMIN).map((user) => user.id);
  if (bot.bot_owner_id !== null && !ids.includes(bot.bot_owner_id)) ids.push(bot.bot_owner_id);
  return ids;
}

/** The bots `viewer` may administer: every bot for an administrator, else those they own. */
export function administeredBots(directory: RealmDirectory, viewer: UserRow): UserRow[] {
  return [...directory.users.values()]
    .filter((user) => user.is_bot && !user.is_system_bot && (viewer.role <= ROLE_ADMIN || user.bot_owner_id === viewer.id))
    .sort((a, b) => a.id - b.id);
}
