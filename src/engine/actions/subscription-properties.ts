import { badRequest } from '../errors/api-error.ts';
import { hasContentAccess } from '../permissions/channel-audience.ts';
import { NOTIFICATION_PROPERTIES } from '../wire/subscription-wire.ts';
import type { SubscriptionRow } from '../storage/rows.ts';
import type { CallerScope } from '../services/action-scope.ts';
import type { Notice } from '../events/event-types.ts';

/** Every personal property of a subscription a user may change (spec 4.1). */
export const SUBSCRIPTION_PROPERTIES = ['color', 'is_muted', 'in_home_view', 'pin_to_top', ...NOTIFICATION_PROPERTIES] as const;
export type SubscriptionProperty = (typeof SUBSCRIPTION_PROPERTIES)[number];

/** One change, already checked: `color` carries a hex color, every other property a boolean. */
export type SubscriptionPropertyChange =
  | { stream_id: number; property: 'color'; value: string }
  | { stream_id: number; property: Exclude<SubscriptionProperty, 'color'>; value: boolean };

/**
 * POST /users/me/subscriptions/properties: applies each change to the caller's subscription,
 * in order, all or nothing. Each change is one `subscription` update event, except that muting
 * (`is_muted`, or its legacy inverse `in_home_view`) sends both properties, `in_home_view` first.
 */
export async function updateSubscriptionProperties(scope: CallerScope, changes: readonly SubscriptionPropertyChange[]): Promise<void> {
  const { directory, caller: user } = scope;
  const rows = new Map<number, SubscriptionRow>();
  for (const change of changes) {
    const streamId = change.stream_id;
    const row = rows.get(streamId) ?? (await scope.db.subscriptions.get([user.id, streamId]));
    const channel = directory.channels.get(streamId);
    const subscribed = row?.active === 1;
    if (!channel || channel.is_archived || !hasContentAccess(user, channel, subscribed)) {
      throw badRequest('Invalid channel ID');
    }
    if (!row || !subscribed) throw badRequest(`Not subscribed to channel ID ${streamId}`);
    const updated = applyChange(row, change);
    rows.set(streamId, updated);
    await scope.db.subscriptions.put(updated);
    for (const notice of subscriptionUpdateNotices(user.id, change)) scope.notify(notice);
  }
}

/** The `subscription` update events one change is announced as. */
export function subscriptionUpdateNotices(userId: number, change: SubscriptionPropertyChange): Notice[] {
  return eventsFor(change).map(([property, value]) => ({
    event: { type: 'subscription', op: 'update', stream_id: change.stream_id, property, value },
    users: [userId],
  }));
}

function applyChange(row: SubscriptionRow, change: SubscriptionPropertyChange): SubscriptionRow {
  switch (change.property) {
    case 'color':
      return { ...row, color: change.value };
    case 'in_home_view':
      return { ...row, is_muted: !change.value };
    default:
      return { ...row, [change.property]: change.value };
  }
}

/** The (property, value) pairs the change is announced as. */
function eventsFor(change: SubscriptionPropertyChange): [string, boolean | string][] {
  if (change.property === 'is_muted' || change.property === 'in_home_view') {
    const muted = change.property === 'is_muted' ? change.value : !change.value;
    return [
      ['in_home_view', !muted],
      ['is_muted', muted],
    ];
  }
  return [[change.property, change.value]];
}
