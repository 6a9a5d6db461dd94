import { type ChannelStats, channelToWire } from './channel-wire.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { ChannelRow, UserRow } from '../storage/rows.ts';

const DAY_SECONDS = 86400;
/** Upstream calls a channel recently active when it had traffic in the last 180 days. */
const RECENTLY_ACTIVE_DAYS = 180;
/** Weekly traffic is estimated from the last four weeks, and not at all before one week. */
const TRAFFIC_WINDOW_DAYS = 28;
const MIN_AGE_FOR_TRAFFIC_DAYS = 7;

/** Each channel's active subscribers (active users only), in id order. */
export async function loadSubscriberIds(
  db: RealmDatabase,
  users: ReadonlyMap<number, UserRow>,
): Promise<Map<number, number[]>> {
  const byChannel = new Map<number, number[]>();
  await db.subscriptions.each((sub) => {
    if (sub.active !== 1 || !users.get(sub.user_id)?.is_active) return;
    const list = byChannel.get(sub.channel_id);
    if (list) list.push(sub.user_id);
    else byChannel.set(sub.channel_id, [sub.user_id]);
  });
  for (const list of byChannel.values()) list.sort((a, b) => a - b);
  return byChannel;
}

/** The active subscribers (active users only) of a few channels, read from the channel index. */
export async function loadChannelSubscriberIds(
  db: RealmDatabase,
  users: ReadonlyMap<number, UserRow>,
  channelIds: Iterable<number>,
): Promise<Map<number, number[]>> {
  const byChannel = new Map<number, number[]>();
  for (const channelId of new Set(channelIds)) {
    const subs = await db.subscriptions.where('[channel_id+active]').equals([channelId, 1]).toArray();
    byChannel.set(
      channelId,
      subs.map((s) => s.user_id).filter((id) => users.get(id)?.is_active).sort((a, b) => a - b),
    );
  }
  return byChannel;
}

/**
 * Activity figures for each channel. Each walks the channel's own [stream_id+id] index from
 * the newest message back only as far as the traffic window reaches.
 */
export async function loadChannelStats(
  db: RealmDatabase,
  channels: Iterable<ChannelRow>,
  subscriberIds: ReadonlyMap<number, readonly number[]>,
  now: number,
): Promise<Map<number, ChannelStats>> {
  const stats = new Map<number, ChannelStats>();
  for (const channel of channels) {
    const newest = await channelMessages(db, channel.id).last();
    const ageDays = (now - channel.date_created) / DAY_SECONDS;
    const lastActivity = Math.max(newest?.timestamp ?? 0, channel.date_created);
    stats.set(channel.id, {
      subscriberCount: subscriberIds.get(channel.id)?.length ?? 0,
      isRecentlyActive: now - lastActivity <= RECENTLY_ACTIVE_DAYS * DAY_SECONDS,
      weeklyTraffic: ageDays < MIN_AGE_FOR_TRAFFIC_DAYS ? null : await weeklyTraffic(db, channel.id, ageDays, now),
    });
  }
  return stats;
}

/** Channel objects as the API shows them, with their current subscribers and activity. */
export async function loadChannelWires(
  db: RealmDatabase,
  users: ReadonlyMap<number, UserRow>,
  channels: readonly ChannelRow[],
  now: number,
): Promise<Record<string, unknown>[]> {
  const subscriberIds = await loadChannelSubscriberIds(db, users, channels.map((c) => c.id));
  const stats = await loadChannelStats(db, channels, subscriberIds, now);
  return channels.map((channel) => channelToWire(channel, stats.get(channel.id)!));
}

function channelMessages(db: RealmDatabase, channelId: number) {
  return db.messages.where('[stream_id+id]').between([channelId, 0], [channelId, Infinity]);
}

/** Messages per week over the recent window, rounded to two significant digits as upstream. */
async function weeklyTraffic(db: RealmDatabase, channelId: number, ageDays: number, now: number): Promise<number> {
  const cutoff = now - TRAFFIC_WINDOW_DAYS * DAY_SECONDS;
  const recent = await channelMessages(db, channelId)
    .reverse()
    .until((message) => message.timestamp < cutoff)
    .count();
  const weekly = Math.floor((recent * 7) / Math.min(Math.floor(ageDays), TRAFFIC_WINDOW_DAYS));
  if (weekly === 0) return recent > 0 ? 1 : 0;
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(weekly)) - 1);
  return Math.round(weekly / magnitude) * magnitude;
}
