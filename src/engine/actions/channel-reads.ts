/**
 * What a caller may read about channels, each read behind the access rule upstream gives it.
 * A channel the caller may not see this way is reported as if it did not exist.
 */
import { badRequest } from '../errors/api-error.ts';
import { canSeeChannelMetadata, canSeeSubscribers } from '../permissions/channel-visibility.ts';
import { activeSubscriberIds, hasContentAccess } from '../permissions/channel-audience.ts';
import type { RealmDatabase } from '../storage/database.ts';
import { ROLE_ADMIN, ROLE_GUEST, type ChannelRow, type UserRow } from '../storage/rows.ts';
import type { ReadScope } from '../services/action-scope.ts';

/** How many messages' flags are looked up at once when a channel's history is protected. */
const ACCESS_BATCH = 500;

const invalidChannelId = () => badRequest('Invalid channel ID');

const isSubscribed = async (db: RealmDatabase, userId: number, channelId: number): Promise<boolean> =>
  (await db.subscriptions.get([userId, channelId]))?.active === 1;

/** The caller's subscription state, and the channel if it is live: "Invalid channel ID" otherwise. */
async function liveChannel(scope: ReadScope, channelId: number): Promise<{ channel: ChannelRow; subscribed: boolean }> {
  const channel = scope.directory.channels.get(channelId);
  if (!channel || channel.is_archived) throw invalidChannelId();
  return { channel, subscribed: await isSubscribed(scope.db, scope.caller.id, channelId) };
}

/** GET /streams/{stream_id}: a channel, archived or not, whose settings the caller may see. */
export async function channelWithMetadata(scope: ReadScope, channelId: number): Promise<ChannelRow> {
  const channel = scope.directory.channels.get(channelId);
  if (!channel || !canSeeChannelMetadata(scope.caller, channel, await isSubscribed(scope.db, scope.caller.id, channelId))) {
    throw invalidChannelId();
  }
  return channel;
}

/** Which channels GET /streams lists. */
export interface ChannelFilter {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  excludeArchived: boolean;
  /** Administrators only. */
  includeAll: boolean;
  includeDefault: boolean;
  /** For a bot: also its owner's channels. */
  includeOwnerSubscribed: boolean;
}

/** GET /streams: the channels the filter asks for among those the caller may list, by name. */
export async function listedChannels(scope: ReadScope, filter: ChannelFilter): Promise<ChannelRow[]> {
  const { db, directory, caller: user } = scope;
  if (filter.includeAll && user.role > ROLE_ADMIN) throw badRequest('User not authorized for this query');
  const subscribedBy = async (userId: number) =>
    new Set((await db.subscriptions.where('[user_id+active]').equals([userId, 1]).toArray()).map((s) => s.channel_id));
  const subscribed = await subscribedBy(user.id);
  const ownerSubscribed =
    filter.includeOwnerSubscribed && user.is_bot && user.bot_owner_id !== null ? await subscribedBy(user.bot_owner_id) : new Set<number>();
  const defaults = new Set(directory.realm.default_channel_ids);
  // Guests never see public channels they are not in.
  const includePublic = filter.includePublic && user.role !== ROLE_GUEST;
  const wanted = (c: ChannelRow) =>
    filter.includeAll ||
    (includePublic && !c.invite_only) ||
    (filter.includeWebPublic && c.is_web_public) ||
    (filter.includeSubscribed && subscribed.has(c.id)) ||
    (filter.includeDefault && defaults.has(c.id)) ||
    ownerSubscribed.has(c.id);
  return [...directory.channels.values()]
    .filter((c) => !(filter.excludeArchived && c.is_archived))
    .filter(wanted)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** GET /streams/{stream_id}/members: a live channel's active subscribers, if the caller may see them. */
export async function channelSubscriberIds(scope: ReadScope, channelId: number): Promise<number[]> {
  const { channel, subscribed } = await liveChannel(scope, channelId);
  if (!canSeeSubscribers(scope.caller, channel, subscribed)) throw invalidChannelId();
  return activeSubscriberIds(scope.db, scope.directory, channel.id);
}

/**
 * GET /users/me/{stream_id}/topics: the live channel's topics the caller may see, newest first,
 * each with its newest message id and the name that message carries. With protected history
 * only the messages the caller received count. Walks the channel's own index once.
 */
export async function channelTopics(scope: ReadScope, channelId: number): Promise<{ name: string; max_id: number }[]> {
  const { db, caller } = scope;
  const { channel, subscribed } = await liveChannel(scope, channelId);
  if (!hasContentAccess(caller, channel, subscribed)) throw invalidChannelId();
  const messages: { id: number; topic: string; topic_key: string }[] = [];
  await db.messages
    .where('[stream_id+id]')
    .between([channel.id, 0], [channel.id, Infinity])
    .reverse()
    .each((m) => messages.push({ id: m.id, topic: m.topic, topic_key: m.topic_key ?? '' }));
  const visible = channel.history_public_to_subscribers ? messages : await received(db, caller, messages);
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

/** GET /get_stream_id: the id of a live channel, named as it is, whose messages the caller may read. */
export async function channelIdByName(scope: ReadScope, name: string): Promise<number> {
  const channel = scope.directory.channelByName(name);
  const subscribed = channel !== undefined && (await isSubscribed(scope.db, scope.caller.id, channel.id));
  if (!channel || channel.is_archived || !hasContentAccess(scope.caller, channel, subscribed)) {
    throw badRequest(`Invalid channel name '${name}'`);
  }
  return channel.id;
}

/**
 * GET /users/{user_id}/subscriptions/{stream_id}: whether an active human user is subscribed
 * to a live channel whose settings the caller may see.
 */
export async function isUserSubscribed(scope: ReadScope, input: { userId: number; channelId: number }): Promise<boolean> {
  const { db, directory, caller } = scope;
  const target = directory.users.get(input.userId);
  if (!target || target.is_bot) throw badRequest('No such user');
  if (!target.is_active) throw badRequest('User is deactivated');
  const channel = directory.channels.get(input.channelId);
  if (!channel || channel.is_archived || !canSeeChannelMetadata(caller, channel, await isSubscribed(db, caller.id, channel.id))) {
    throw invalidChannelId();
  }
  return isSubscribed(db, target.id, channel.id);
}
