import { badRequest } from '../http/api-error.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { bool, pathId, str } from '../http/param-types.ts';
import { canSeeSubscribers } from '../initial-state/channel-visibility.ts';
import { activeSubscriberIds, hasContentAccess } from '../lib/channel-audience.ts';
import { displayTopic } from '../lib/message-wire.ts';
import type { RealmDirectory } from '../lib/realm-directory.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { ChannelRow, UserRow } from '../storage/rows.ts';

/** How many messages' flags are looked up at once when a channel's history is protected. */
const ACCESS_BATCH = 500;

/** The caller's subscription state, and the channel if it is live: "Invalid channel ID" otherwise. */
async function liveChannel(db: RealmDatabase, directory: RealmDirectory, user: UserRow, channelId: number) {
  const channel = directory.channels.get(channelId);
  if (!channel || channel.is_archived) throw badRequest('Invalid channel ID');
  const subscribed = (await db.subscriptions.get([user.id, channelId]))?.active === 1;
  return { channel, subscribed };
}

/**
 * The channel's topics the user may see, newest first, each with its newest message id and
 * the name that message carries. With protected history only the messages the user received
 * count. Walks the channel's own index once.
 */
async function topicsOf(db: RealmDatabase, user: UserRow, channel: ChannelRow): Promise<{ name: string; max_id: number }[]> {
  const messages: { id: number; topic: string; topic_key: string }[] = [];
  await db.messages
    .where('[stream_id+id]')
    .between([channel.id, 0], [channel.id, Infinity])
    .reverse()
    .each((m) => messages.push({ id: m.id, topic: m.topic, topic_key: m.topic_key ?? '' }));
  const visible = channel.history_public_to_subscribers ? messages : await received(db, user, messages);
  const topics = new Map<string, { name: string; max_id: number }>();
  for (const m of visible) {
    if (!topics.has(m.topic_key)) topics.set(m.topic_key, { name: m.topic, max_id: m.id });
  }
  return [...topics.values()];
}

async function received<T extends { id: number }>(db: RealmDatabase, user: UserRow, messages: T[]): Promise<T[]> {
  const kept: T[] = [];
  for (let start = 0; start < messages.length; start += ACCESS_BATCH) {
    const batch = messages.slice(start, start + ACCESS_BATCH);
    const rows = await db.user_messages.bulkGet(batch.map((m) => [user.id, m.id] as [number, number]));
    batch.forEach((m, i) => rows[i] && kept.push(m));
  }
  return kept;
}

/** Reads about one channel: its subscribers, its topics, its id by name. */
export const channelQueryEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/streams/{stream_id}/members',
    params: { stream_id: pathId() },
    async read({ db, directory, caller }, params) {
      const { channel, subscribed } = await liveChannel(db, directory, caller, params.stream_id);
      if (!canSeeSubscribers(caller, channel, subscribed)) throw badRequest('Invalid channel ID');
      return { subscribers: await activeSubscriberIds(db, directory, channel.id) };
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/users/me/{stream_id}/topics',
    params: { stream_id: pathId(), allow_empty_topic_name: bool().default(false) },
    async read({ db, directory, caller }, params) {
      const { channel, subscribed } = await liveChannel(db, directory, caller, params.stream_id);
      if (!hasContentAccess(caller, channel, subscribed)) throw badRequest('Invalid channel ID');
      const topics = await topicsOf(db, caller, channel);
      return {
        topics: topics.map((t) => ({ name: displayTopic(t.name, directory, params.allow_empty_topic_name), max_id: t.max_id })),
      };
    },
  }),

  defineEndpoint({
    method: 'GET',
    path: '/get_stream_id',
    params: { stream: str() },
    async read({ db, directory, caller }, params) {
      const channel = directory.channelByName(params.stream);
      const subscribed = channel !== undefined && (await db.subscriptions.get([caller.id, channel.id]))?.active === 1;
      if (!channel || channel.is_archived || !hasContentAccess(caller, channel, subscribed)) {
        throw badRequest(`Invalid channel name '${params.stream}'`);
      }
      return { stream_id: channel.id };
    },
  }),
];
