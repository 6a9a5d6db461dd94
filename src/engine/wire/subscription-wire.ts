import type { ChannelRow, SubscriptionRow, UserRow } from '../storage/rows.ts';
import { type ChannelStats, channelToWire } from './channel-wire.ts';

export const NOTIFICATION_PROPERTIES = [
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;
export type NotificationProperty = (typeof NOTIFICATION_PROPERTIES)[number];

/** The user-level values a null channel notification setting inherits. */
export type NotificationDefaults = Record<NotificationProperty, boolean>;

/** `include_subscribers`: no lists, full lists, or (`partial`) full lists only for small channels. */
export type SubscriberMode = 'none' | 'all' | 'partial';

/** Channels below this size always get their full subscriber list with `partial` (spec 8). */
export const PARTIAL_SUBSCRIBERS_THRESHOLD = 250;

/**
 * The `subscribers` / `partial_subscribers` field of a channel for `mode`. A partial list holds
 * every bot and every recently active user; this server keeps no activity record, so only
 * the bots qualify.
 */
export function subscriberFields(
  subscriberIds: readonly number[],
  users: ReadonlyMap<number, UserRow>,
  mode: SubscriberMode,
): Record<string, number[]> {
  if (mode === 'none') return {};
  if (mode === 'all' || subscriberIds.length < PARTIAL_SUBSCRIBERS_THRESHOLD) return { subscribers: [...subscriberIds] };
  return { partial_subscribers: subscriberIds.filter((id) => users.get(id)?.is_bot) };
}

/**
 * A channel as one subscriber sees it (spec 2.5): the channel object plus the user's personal
 * settings. `inherited` is null for clients with `notification_settings_null`; otherwise null
 * settings are replaced by the user-level defaults, as old clients need plain booleans.
 */
export function subscriptionToWire(
  channel: ChannelRow,
  subscription: SubscriptionRow,
  stats: ChannelStats,
  inherited: NotificationDefaults | null,
  subscribers: Record<string, number[]>,
): Record<string, unknown> {
  const wire: Record<string, unknown> = {
    ...channelToWire(channel, stats),
    color: subscription.color,
    is_muted: subscription.is_muted,
    in_home_view: !subscription.is_muted,
    pin_to_top: subscription.pin_to_top,
    ...subscribers,
  };
  for (const property of NOTIFICATION_PROPERTIES) {
    const value = subscription[property];
    wire[property] = value === null && inherited ? inherited[property] : value;
  }
  return wire;
}
