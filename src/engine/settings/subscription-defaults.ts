import type { SubscriptionRow } from '../storage/rows.ts';

/**
 * A new, active subscription with upstream's defaults: not muted, not pinned, and every
 * notification setting null (inherit the user's defaults). Messages before
 * `firstMessageIdSeen` are history the user did not receive.
 */
export function newSubscription(userId: number, channelId: number, color: string, firstMessageIdSeen = 0): SubscriptionRow {
  return {
    user_id: userId,
    channel_id: channelId,
    active: 1,
    color,
    is_muted: false,
    pin_to_top: false,
    desktop_notifications: null,
    audible_notifications: null,
    push_notifications: null,
    email_notifications: null,
    wildcard_mentions_notify: null,
    first_message_id_seen: firstMessageIdSeen,
  };
}
