import { canReadChannelHistory } from '../engine/permissions/channel-access.ts';
import type { RealmDatabase } from '../engine/storage/database.ts';
import type { ChannelRow, SubscriptionRow, UserRow } from '../engine/storage/rows.ts';
import type { PullAnswer } from './protocol.ts';

/**
 * Of `channels`, those whose whole history the user may read (the API's own rule,
 * `canReadChannelHistory`), given the user's own active subscriptions: the channels whose
 * history a replica holds (docs/SYNC.md, "Channel history"). The hub asks it of its rows, a
 * replica of its own.
 */
export function readableHistoryIds(user: UserRow, channels: Iterable<ChannelRow>, own: readonly SubscriptionRow[]): Set<number> {
  const subscribed = new Set(own.map((s) => s.channel_id));
  return new Set([...channels].filter((c) => canReadChannelHistory(user, c, subscribed.has(c.id))).map((c) => c.id));
}

/** The user's active subscriptions, which `readableHistoryIds` reads. */
export const ownSubscriptions = (db: RealmDatabase, user: UserRow): Promise<SubscriptionRow[]> =>
  db.subscriptions.where('[user_id+active]').equals([user.id, 1]).toArray();

/** Whether a page can change whose history its user may read: only channel and user changes can. */
export const changesHistoryAccess = (page: PullAnswer): boolean =>
  (page.channels?.length ?? 0) + (page.removed_channels?.length ?? 0) + (page.users?.length ?? 0) > 0;
