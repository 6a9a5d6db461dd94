import { Dexie } from 'dexie';
import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { MessageRow, RecipientRow, UserRow } from '../../engine/storage/rows.ts';
import { ownSubscriptions, readableHistoryIds } from '../history-access.ts';
import type { HistoryAnswer, MessageBundle } from '../protocol.ts';

/**
 * Channel history on a replica (docs/SYNC.md, "Channel history"): besides the messages its user
 * received, a replica holds every channel message its user may read on the hub without having
 * received it (a public channel's, or a private channel's that shares its history with its
 * subscribers), so a channel's earlier messages show there as they do on the hub.
 */

/** The channels whose whole history the caller may read, by the hub's rows. */
export async function historyChannelIds(db: RealmDatabase, caller: UserRow): Promise<Set<number>> {
  const own = await ownSubscriptions(db, caller);
  return readableHistoryIds(caller, await db.channels.toArray(), own);
}

/**
 * Of `messages` (none of them received by the caller), those the caller may read as channel
 * history, as bundles without flags (`user_message: null`); `readable` from `historyChannelIds`.
 */
export async function historicalBundles(db: RealmDatabase, messages: readonly MessageRow[], readable: ReadonlySet<number>): Promise<MessageBundle[]> {
  const shown = messages.filter((m) => m.stream_id !== undefined && readable.has(m.stream_id));
  if (shown.length === 0) return [];
  const ids = shown.map((m) => m.id);
  const [reactions, recipients] = await Promise.all([
    db.reactions.where('message_id').anyOf(ids).sortBy('seq'),
    db.recipients.bulkGet([...new Set(shown.map((m) => m.recipient_id))]),
  ]);
  const byId = new Map(recipients.filter((r) => r !== undefined).map((r) => [r.id, r]));
  const bundles = new Map(shown.map((message) => [message.id, { message, user_message: null, reactions: [], recipient: byId.get(message.recipient_id) as RecipientRow } as MessageBundle]));
  for (const reaction of reactions) bundles.get(reaction.message_id)?.reactions.push(reaction);
  return [...bundles.values()];
}

/**
 * One page of a channel's history for the caller, newest first below `before`: the messages the
 * caller did not receive (those it did come by pulls), as `historicalBundles` shapes them, and
 * where the next page starts. Empty when the caller may not read the channel's history.
 */
export async function historyPage(
  db: RealmDatabase,
  caller: UserRow,
  channelId: number,
  before: number,
  limit: number,
): Promise<HistoryAnswer> {
  const readable = await historyChannelIds(db, caller);
  if (!readable.has(channelId)) return { messages: [], before: null };
  const rows = await db.messages
    .where('[stream_id+id]')
    .between([channelId, Dexie.minKey], [channelId, before], true, false)
    .reverse()
    .limit(limit + 1)
    .toArray();
  const page = rows.slice(0, limit);
  const received = await db.user_messages.bulkGet(page.map((m): [number, number] => [caller.id, m.id]));
  const notReceived = page.filter((_, index) => received[index] === undefined);
  return { messages: await historicalBundles(db, notReceived, readable), before: rows.length > limit ? page.at(-1)!.id : null };
}
