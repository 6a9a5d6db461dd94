import type { ChannelStats } from '../wire/channel-wire.ts';
import { channelToWire } from '../wire/channel-wire.ts';
import { subscriberFields, subscriptionToWire } from '../wire/subscription-wire.ts';
import type { ChannelRow, SubscriptionRow } from '../storage/rows.ts';
import { loadChannelStats, loadSubscriberIds } from '../wire/channel-stats.ts';
import { canSeeChannelMetadata, canSeeSubscribers } from '../permissions/channel-visibility.ts';
import type { StateContext } from './state-context.ts';
import { notificationDefaults } from '../settings/user-settings.ts';
import { newSubscription } from '../settings/subscription-defaults.ts';

/** Spectators see the web-public channels as subscriptions with neutral settings. */
const spectatorSubscription = (channelId: number): SubscriptionRow => newSubscription(0, channelId, '#c2c2c2');

interface ChannelSnapshot {
  channels: ChannelRow[];
  own: Map<number, SubscriptionRow>;
  subscriberIds: Map<number, number[]>;
  stats: Map<number, ChannelStats>;
}

/** Both channel sections read the same snapshot; it is built once per register. */
const snapshots = new WeakMap<StateContext, Promise<ChannelSnapshot>>();

function channelSnapshot(ctx: StateContext): Promise<ChannelSnapshot> {
  let snapshot = snapshots.get(ctx);
  if (!snapshot) snapshots.set(ctx, (snapshot = buildChannelSnapshot(ctx)));
  return snapshot;
}

/** The channels this client may know about, with the caller's subscription rows and figures. */
async function buildChannelSnapshot(ctx: StateContext): Promise<ChannelSnapshot> {
  const { db, directory, user } = ctx;
  const own = new Map<number, SubscriptionRow>();
  if (user) {
    for (const sub of await db.subscriptions.where('[user_id+channel_id]').between([user.id, 0], [user.id, Infinity]).toArray()) {
      own.set(sub.channel_id, sub);
    }
  }
  const channels = [...directory.channels.values()]
    .filter((c) => ctx.capabilities.archived_channels || !c.is_archived)
    .filter((c) => own.has(c.id) || canSeeChannelMetadata(user, c, false))
    .sort((a, b) => a.id - b.id);
  const subscriberIds = await loadSubscriberIds(db, directory.users);
  const stats = await loadChannelStats(db, channels, subscriberIds, ctx.now);
  return { channels, own, subscriberIds, stats };
}

/** `subscription` section: subscribed, formerly subscribed, and never subscribed channels. */
export async function subscriptionSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const snapshot = await channelSnapshot(ctx);
  const { user, directory } = ctx;
  const inherited = ctx.capabilities.notification_settings_null ? null : notificationDefaults(ctx.settings);
  const subscribersOf = (channel: ChannelRow, subscribed: boolean) =>
    canSeeSubscribers(user, channel, subscribed)
      ? subscriberFields(snapshot.subscriberIds.get(channel.id) ?? [], directory.users, ctx.includeSubscribers)
      : {};

  const subscriptions: Record<string, unknown>[] = [];
  const unsubscribed: Record<string, unknown>[] = [];
  const neverSubscribed: Record<string, unknown>[] = [];
  for (const channel of snapshot.channels) {
    const stats = snapshot.stats.get(channel.id)!;
    const sub = user ? snapshot.own.get(channel.id) : spectatorSubscription(channel.id);
    if (sub?.active === 1) {
      subscriptions.push(subscriptionToWire(channel, sub, stats, inherited, subscribersOf(channel, true)));
    } else if (sub) {
      unsubscribed.push(subscriptionToWire(channel, sub, stats, inherited, subscribersOf(channel, false)));
    } else if (user) {
      neverSubscribed.push({ ...channelToWire(channel, stats), ...subscribersOf(channel, false) });
    }
  }
  return { subscriptions, unsubscribed, never_subscribed: neverSubscribed };
}

/** `stream` section: every channel the client may know about. */
export async function streamSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const snapshot = await channelSnapshot(ctx);
  return { streams: snapshot.channels.map((c) => channelToWire(c, snapshot.stats.get(c.id)!)) };
}
