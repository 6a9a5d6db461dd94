import type { EngineEvent } from '../events/event-types.ts';
import { loadChannelStats, loadChannelSubscriberIds, loadChannelWires } from '../wire/channel-stats.ts';
import { canSeeChannelMetadata, canSeeSubscribers } from '../permissions/channel-visibility.ts';
import { notificationDefaults, userSettingsObject } from '../settings/user-settings.ts';
import { pickColor } from '../validation/channel-colors.ts';
import { type ChannelStats, channelToWire, streamDeleteEvent } from '../wire/channel-wire.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { newSubscription } from '../settings/subscription-defaults.ts';
import { subscriptionToWire } from '../wire/subscription-wire.ts';
import type { ChannelRow, SubscriptionRow, UserRow } from '../storage/rows.ts';
import { markChannelAsRead } from './message-flags.ts';
import type { ActionScope } from '../services/action-scope.ts';

export interface SubscriptionPair {
  user: UserRow;
  channel: ChannelRow;
}

export interface SubscribeOptions {
  /** Personal colors asked for, by channel id (new subscriptions only; a returning one keeps its own). */
  colors?: ReadonlyMap<number, string>;
  /** Channels this action just created: their creator announces them to their viewers. */
  createdChannelIds?: ReadonlySet<number>;
}

/**
 * Subscribes every user to every channel (upstream's bulk_add_subscriptions): a returning
 * subscriber gets their old row back with its settings; a new one a row with a color of their
 * own. Subscribers of a private channel with protected history see only what is sent from now
 * on. Emits `stream` create to those who could not see the channel before, `subscription`
 * add to each new subscriber and `peer_add` to everyone who sees the channel's subscribers.
 */
export async function subscribeUsers(
  scope: ActionScope,
  directory: RealmDirectory,
  channels: readonly ChannelRow[],
  users: readonly UserRow[],
  options: SubscribeOptions = {},
): Promise<{ subscribed: SubscriptionPair[]; alreadySubscribed: SubscriptionPair[] }> {
  const { db } = scope;
  const subscribed: SubscriptionPair[] = [];
  const alreadySubscribed: SubscriptionPair[] = [];
  const nextMessageId = (await db.counters.get('message'))?.next ?? 1;
  for (const user of users) {
    const own = new Map((await ownSubscriptions(scope, user.id)).map((s) => [s.channel_id, s]));
    const usedColors = new Set([...own.values()].map((s) => s.color));
    for (const channel of channels) {
      const existing = own.get(channel.id);
      if (existing?.active === 1) {
        alreadySubscribed.push({ user, channel });
        continue;
      }
      const firstSeen = channel.invite_only && !channel.history_public_to_subscribers ? nextMessageId : 0;
      const row: SubscriptionRow = existing
        ? { ...existing, active: 1, first_message_id_seen: firstSeen }
        : newSubscription(user.id, channel.id, options.colors?.get(channel.id) ?? pickColor(usedColors), firstSeen);
      usedColors.add(row.color);
      await db.subscriptions.put(row);
      subscribed.push({ user, channel });
    }
  }
  if (subscribed.length > 0) await notifySubscribed(scope, directory, subscribed, options.createdChannelIds ?? new Set());
  return { subscribed, alreadySubscribed };
}

/**
 * Unsubscribes every user from every channel (upstream's bulk_remove_subscriptions); the rows
 * stay, inactive, with the user's settings, and the channel's unread messages become read.
 * Emits `subscription` remove to each user, `stream` delete to users who can no longer see
 * the channel at all, `peer_remove` to those who still see the subscribers, and the users'
 * `update_message_flags` read events.
 */
export async function unsubscribeUsers(
  scope: ActionScope,
  directory: RealmDirectory,
  channels: readonly ChannelRow[],
  users: readonly UserRow[],
): Promise<{ removed: SubscriptionPair[]; notRemoved: SubscriptionPair[] }> {
  const { db } = scope;
  const removed: SubscriptionPair[] = [];
  const notRemoved: SubscriptionPair[] = [];
  for (const user of users) {
    for (const channel of channels) {
      const row = await db.subscriptions.get([user.id, channel.id]);
      if (row?.active !== 1) {
        notRemoved.push({ user, channel });
        continue;
      }
      await db.subscriptions.put({ ...row, active: 0 });
      removed.push({ user, channel });
    }
  }
  if (removed.length > 0) await notifyUnsubscribed(scope, directory, removed);
  // As upstream's deferred work: what was unread in a channel one leaves is read.
  for (const { user, channel } of removed) await markChannelAsRead(scope, user, channel);
  return { removed, notRemoved };
}

function ownSubscriptions(scope: ActionScope, userId: number): Promise<SubscriptionRow[]> {
  return scope.db.subscriptions.where('[user_id+channel_id]').between([userId, 0], [userId, Infinity]).toArray();
}

/** Groups pairs by channel, keeping the channels in first-seen order. */
function usersByChannel(pairs: readonly SubscriptionPair[]): Map<ChannelRow, UserRow[]> {
  const byChannel = new Map<ChannelRow, UserRow[]>();
  for (const { user, channel } of pairs) {
    const list = byChannel.get(channel);
    if (list) list.push(user);
    else byChannel.set(channel, [user]);
  }
  return byChannel;
}

/** Groups pairs by user, keeping the users in first-seen order. */
function channelsByUser(pairs: readonly SubscriptionPair[]): Map<UserRow, ChannelRow[]> {
  const byUser = new Map<UserRow, ChannelRow[]>();
  for (const { user, channel } of pairs) {
    const list = byUser.get(user);
    if (list) list.push(channel);
    else byUser.set(user, [channel]);
  }
  return byUser;
}

/** Active human users and bots of the realm who see `channel`'s subscribers, except `excluded`. */
function subscriberViewers(
  directory: RealmDirectory,
  channel: ChannelRow,
  subscriberIds: ReadonlySet<number>,
  excluded: ReadonlySet<number>,
): number[] {
  const viewers: number[] = [];
  for (const user of directory.users.values()) {
    if (!user.is_active || user.is_system_bot || excluded.has(user.id)) continue;
    if (canSeeSubscribers(user, channel, subscriberIds.has(user.id))) viewers.push(user.id);
  }
  return viewers;
}

/**
 * The events of new subscriptions, already written: `stream` create for channels the user could
 * not see before (other than `createdChannelIds`, announced by their creation), `subscription`
 * add to each subscriber, `peer_add` to who sees the subscribers. A replica emits them too.
 */
export async function notifySubscribed(
  scope: ActionScope,
  directory: RealmDirectory,
  pairs: readonly SubscriptionPair[],
  createdChannelIds: ReadonlySet<number>,
): Promise<void> {
  const byChannel = usersByChannel(pairs);
  const channels = [...byChannel.keys()];
  const subscriberIds = await loadChannelSubscriberIds(scope.db, directory.users, channels.map((c) => c.id));
  const stats = await loadChannelStats(scope.db, channels, subscriberIds, scope.now);

  for (const [user, joined] of channelsByUser(pairs)) {
    const revealed = joined.filter((c) => !createdChannelIds.has(c.id) && !canSeeChannelMetadata(user, c, false));
    if (revealed.length > 0) {
      scope.notify({
        event: { type: 'stream', op: 'create', streams: revealed.map((c) => channelToWire(c, stats.get(c.id)!)) },
        users: [user.id],
      });
    }
    scope.notify({ event: await subscriptionAddEvent(scope, directory, user, joined, stats, subscriberIds), users: [user.id] });
  }

  for (const [channel, joiners] of byChannel) {
    const joinerIds = joiners.map((u) => u.id).sort((a, b) => a - b);
    const peers = subscriberViewers(directory, channel, new Set(subscriberIds.get(channel.id)), new Set(joinerIds));
    if (peers.length === 0) continue;
    scope.notify({
      event: { type: 'subscription', op: 'peer_add', stream_ids: [channel.id], user_ids: joinerIds },
      users: peers,
    });
  }
}

/**
 * The full subscription objects, with subscriber lists and null notification settings. The
 * user's own defaults ride along so that each queue can turn nulls into booleans for clients
 * without `notification_settings_null` (events/subscription-event.ts).
 */
async function subscriptionAddEvent(
  scope: ActionScope,
  directory: RealmDirectory,
  user: UserRow,
  channels: readonly ChannelRow[],
  stats: ReadonlyMap<number, ChannelStats>,
  subscriberIds: ReadonlyMap<number, number[]>,
): Promise<EngineEvent> {
  const subscriptions: Record<string, unknown>[] = [];
  for (const channel of channels) {
    const row = (await scope.db.subscriptions.get([user.id, channel.id]))!;
    subscriptions.push(
      subscriptionToWire(channel, row, stats.get(channel.id)!, null, { subscribers: subscriberIds.get(channel.id) ?? [] }),
    );
  }
  return {
    type: 'subscription',
    op: 'add',
    subscriptions,
    notification_defaults: notificationDefaults(userSettingsObject(user, directory.realm)),
  };
}

/**
 * The events of ended subscriptions, already written: `subscription` remove, `stream` delete
 * for channels the user can no longer see, `peer_remove`. A replica emits them too.
 */
export async function notifyUnsubscribed(scope: ActionScope, directory: RealmDirectory, pairs: readonly SubscriptionPair[]): Promise<void> {
  for (const [user, left] of channelsByUser(pairs)) {
    scope.notify({
      event: { type: 'subscription', op: 'remove', subscriptions: left.map((c) => ({ name: c.name, stream_id: c.id })) },
      users: [user.id],
    });
    const lost = left.filter((c) => !canSeeChannelMetadata(user, c, false));
    if (lost.length === 0) continue;
    scope.notify({ event: streamDeleteEvent(await loadChannelWires(scope.db, directory.users, lost, scope.now)), users: [user.id] });
  }

  const byChannel = usersByChannel(pairs);
  const subscriberIds = await loadChannelSubscriberIds(scope.db, directory.users, [...byChannel.keys()].map((c) => c.id));
  for (const [channel, leavers] of byChannel) {
    const leaverIds = leavers.map((u) => u.id).sort((a, b) => a - b);
    const peers = subscriberViewers(directory, channel, new Set(subscriberIds.get(channel.id)), new Set(leaverIds));
    if (peers.length > 0) {
      scope.notify({
        event: { type: 'subscription', op: 'peer_remove', stream_ids: [channel.id], user_ids: leaverIds },
        users: peers,
      });
    }
  }
}
