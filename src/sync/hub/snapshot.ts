import { Dexie } from 'dexie';
import { generateApiKey } from '../../engine/auth/passwords.ts';
import { apiEmail } from '../../engine/permissions/email-visibility.ts';
import { canSeeChannelMetadata, canSeeSubscribers } from '../../engine/permissions/channel-visibility.ts';
import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { ChannelRow, RealmRow, SubscriptionRow, UserRow } from '../../engine/storage/rows.ts';
import { OWN_ROWS, SHARED_TABLES } from '../table-scopes.ts';
import { HISTORY_VERSION } from '../protocol.ts';
import { historyChannelIds } from './history.ts';
import { currentSeq } from './hub-identity.ts';

/**
 * One user's view of the realm, for a replica to run its engine on (docs/SYNC.md), read in the
 * caller's snapshot transaction with the change cursor it is consistent with. Never sent:
 * invitations, outgoing mail, exports, channel email tokens, counters, the hub's sync tables,
 * other users' API keys, password hashes and hidden emails. A replica of `HISTORY_VERSION` also
 * gets the channel history its user may read without having received it (no flags rows).
 */
export async function userSnapshot(
  db: RealmDatabase,
  caller: UserRow,
  version: number,
): Promise<{ cursor: number; tables: Record<string, unknown[]>; history_channel_ids?: number[] }> {
  const realm = (await db.realm.get(1)) as RealmRow;
  const tables: Record<string, unknown[]> = { realm: [realm] };
  tables.users = (await db.users.toArray()).map((user) => userSeenBy(realm, caller, user));

  const own = await db.subscriptions.where('[user_id+active]').equals([caller.id, 1]).toArray();
  const seen = channelsSeenBy(caller, await db.channels.toArray(), new Set(own.map((s) => s.channel_id)), await db.subscriptions.toArray());
  tables.channels = seen.channels;
  tables.subscriptions = seen.subscriptions;

  const userMessages = await db.user_messages
    .where('[user_id+message_id]')
    .between([caller.id, Dexie.minKey], [caller.id, Dexie.maxKey])
    .toArray();
  const messageIds = userMessages.map((um) => um.message_id);
  tables.user_messages = userMessages;
  const messages = (await db.messages.bulkGet(messageIds)).filter((m) => m !== undefined);
  const history = version >= HISTORY_VERSION ? [...(await historyChannelIds(db, caller))] : null;
  if (history) {
    const received = new Set(messageIds);
    for (const channelId of history) {
      const rows = await db.messages.where('[stream_id+id]').between([channelId, Dexie.minKey], [channelId, Dexie.maxKey]).toArray();
      for (const message of rows) {
        if (received.has(message.id)) continue;
        messages.push(message);
        messageIds.push(message.id);
      }
    }
  }
  tables.messages = messages;
  tables.reactions = await db.reactions.where('message_id').anyOf(messageIds).toArray();

  for (const name of SHARED_TABLES) tables[name] = await db.table(name).toArray();
  for (const [name, index] of Object.entries(OWN_ROWS)) tables[name] = await db.table(name).where(index).equals(caller.id).toArray();
  return { cursor: await currentSeq(db), tables, ...(history && { history_channel_ids: history }) };
}

/**
 * A user as the caller may know them: the caller's own row whole (to log in to the replica);
 * another user without credentials or personal settings, with the email the caller may see.
 */
export function userSeenBy(realm: RealmRow, caller: UserRow, user: UserRow): UserRow {
  if (user.id === caller.id) return user;
  const email = apiEmail(realm, caller, user);
  return { ...user, email, email_key: email.toLowerCase(), api_key: generateApiKey(), password_hash: null, settings: {} };
}

/**
 * Of `channels`, those the caller may see, and of `subscriptions` (rows of any channels), the
 * caller's own and those of the visible channels whose subscribers the caller may see.
 * `subscribed`: the channels the caller is an active subscriber of.
 */
export function channelsSeenBy(
  caller: UserRow,
  channels: readonly ChannelRow[],
  subscribed: ReadonlySet<number>,
  subscriptions: readonly SubscriptionRow[],
): { channels: ChannelRow[]; subscriptions: SubscriptionRow[] } {
  const visible = channels.filter((c) => canSeeChannelMetadata(caller, c, subscribed.has(c.id)));
  const subscribersVisible = new Set(visible.filter((c) => canSeeSubscribers(caller, c, subscribed.has(c.id))).map((c) => c.id));
  return { channels: visible, subscriptions: subscriptions.filter((s) => s.user_id === caller.id || subscribersVisible.has(s.channel_id)) };
}
