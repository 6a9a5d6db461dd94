import { invalidMessage } from '../errors/api-error.ts';
import { canReadChannelHistory } from '../permissions/channel-access.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { activeSubscriptionsOf } from '../directory/cached-reads.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { MessageRow, UserMessageRow, UserRow } from '../storage/rows.ts';

export interface AccessibleMessage {
  row: MessageRow;
  /** The viewer's flags row; absent for channel history they never received. */
  userMessage: UserMessageRow | undefined;
}

/**
 * The message `messageId` as `viewer` may see it, or "Invalid message(s)". A message is
 * visible when the viewer received it (has a UserMessage row), or when it is a channel
 * message whose history the viewer may read (public channel for non-guests; a private
 * channel with shared history while subscribed).
 */
export const loadAccessibleMessage = async (
  db: RealmDatabase,
  directory: RealmDirectory,
  viewer: UserRow,
  messageId: number,
): Promise<AccessibleMessage> => {
  const found = await loadAccessibleMessages(db, directory, viewer, [messageId]);
  const message = found.get(messageId);
  if (!message) throw invalidMessage();
  return message;
};

/** The subset of `messageIds` that exists and that `viewer` may see, keyed by id. */
export const loadAccessibleMessages = async (
  db: RealmDatabase,
  directory: RealmDirectory,
  viewer: UserRow,
  messageIds: readonly number[],
): Promise<Map<number, AccessibleMessage>> => {
  const ids = [...new Set(messageIds)];
  const [rows, userMessages] = await Promise.all([
    db.messages.bulkGet(ids),
    db.user_messages.bulkGet(ids.map((id): [number, number] => [viewer.id, id])),
  ]);
  const subscribed = await subscribedChannelIds(db, viewer.id);
  const accessible = new Map<number, AccessibleMessage>();
  rows.forEach((row, index) => {
    if (!row) return;
    const userMessage = userMessages[index];
    if (userMessage || canReadHistoryOf(directory, viewer, row, subscribed)) {
      accessible.set(row.id, { row, userMessage });
    }
  });
  return accessible;
};

/** Ids of the channels `userId` is currently subscribed to. */
export const subscribedChannelIds = async (db: RealmDatabase, userId: number): Promise<Set<number>> => {
  return new Set((await activeSubscriptionsOf(db, userId)).map((s) => s.channel_id));
};

/** Whether a message the viewer never received is still visible to them as channel history. */
function canReadHistoryOf(
  directory: RealmDirectory,
  viewer: UserRow,
  row: MessageRow,
  subscribed: ReadonlySet<number>,
): boolean {
  if (row.type !== 'stream') return false;
  const channel = directory.channels.get(row.stream_id!);
  return channel !== undefined && canReadChannelHistory(viewer, channel, subscribed.has(channel.id));
}
