import type { EngineEvent } from '../events/event-types.ts';
import { badRequest, invalidMessage, streamDoesNotExistById } from '../errors/api-error.ts';
import { canReadChannel } from '../permissions/channel-access.ts';
import { ALL_FLAGS, EDITABLE_FLAGS, userMessageRow, withIndexColumns } from '../storage/flags.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { normalizeTopic } from '../validation/message-limits.ts';
import { dmParticipants } from '../storage/recipients.ts';
import { loadAccessibleMessages, subscribedChannelIds } from '../narrow/message-access.ts';
import { activeSubscriptionsOf } from '../directory/cached-reads.ts';
import { findMessageIds, type MessagePage, type MessageWindow } from '../narrow/message-page.ts';
import { parseNarrow } from '../narrow/narrow-parse.ts';
import type { RealmDatabase } from '../storage/database.ts';
import { type ChannelRow, FLAG_BITS, type FlagName, type MessageRow, type UserMessageRow, type UserRow } from '../storage/rows.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';

export type FlagOp = 'add' | 'remove';

export interface FlagsRequest {
  op: FlagOp;
  flag: string;
  messageIds: readonly number[];
}

/** POST /messages/flags/narrow: the flag change, over a window of a narrow instead of ids. */
export interface NarrowFlagsRequest extends MessageWindow {
  narrow: unknown;
  op: FlagOp;
  flag: string;
}

/** Upstream's bound on one flags-for-narrow request; this server's on a list of message ids too. */
export const MAX_MESSAGES_PER_UPDATE = 5000;

const ANY_MENTION =
  FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.group_mentioned;

/** "Invalid flag: 'x'" for unknown flags, "Flag not editable: 'x'" for server-managed ones. */
function checkEditableFlag(flag: string): FlagName {
  if (!ALL_FLAGS.has(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (!EDITABLE_FLAGS.has(flag)) throw badRequest(`Flag not editable: '${flag}'`);
  return flag as FlagName;
}

/**
 * Adds or removes one of the caller's flags on the given messages and returns the ids whose
 * flag actually changed. Channel history the caller never received gets a UserMessage row
 * (read, historical); a message the caller cannot see refuses the whole request. As upstream,
 * marking unread skips channel messages of channels the caller is not subscribed to.
 */
export async function updateMessageFlags(scope: CallerScope, request: FlagsRequest): Promise<number[]> {
  const { db, directory, caller: user } = scope;
  const { op, messageIds } = request;
  const flag = checkEditableFlag(request.flag);
  const bit = FLAG_BITS[flag];
  const adding = op === 'add';
  let ids = [...new Set(messageIds)];
  if (flag === 'read' && !adding) {
    const subscribed = await subscribedChannelIds(db, user.id);
    const rows = await db.messages.bulkGet(ids);
    ids = ids.filter((_, index) => {
      const row = rows[index];
      return !row || row.type !== 'stream' || subscribed.has(row.stream_id!);
    });
  }

  const existing = await db.user_messages.bulkGet(ids.map((id): [number, number] => [user.id, id]));
  const missing = ids.filter((_, index) => existing[index] === undefined);
  const historical = await loadAccessibleMessages(db, directory, user, missing);
  if (historical.size !== missing.length) throw invalidMessage();

  const changed: UserMessageRow[] = [];
  for (const row of existing) {
    if (!row || Boolean(row.flags & bit) === adding) continue;
    changed.push(withIndexColumns({ ...row, flags: adding ? row.flags | bit : row.flags & ~bit }));
  }
  // Rows for channel history start read and historical; they count as changed only when the
  // requested flag differs from that.
  const createdUnchanged: UserMessageRow[] = [];
  const defaultHistorical = FLAG_BITS.read | FLAG_BITS.historical;
  for (const id of missing) {
    const flags = adding ? defaultHistorical | bit : defaultHistorical & ~bit;
    (flags === defaultHistorical ? createdUnchanged : changed).push(userMessageRow(user.id, historical.get(id)!.row, flags));
  }
  await db.user_messages.bulkPut([...createdUnchanged, ...changed]);

  const changedIds = changed.map((row) => row.message_id).sort((a, b) => a - b);
  const event: EngineEvent = { type: 'update_message_flags', op, operation: op, flag, messages: changedIds, all: false };
  if (flag === 'read' && !adding) event.message_details = await unreadDetails(db, user, changed);
  scope.notify({ event, users: [user.id], emptyTopicDisplayName: directory.realm.empty_topic_display_name });
  return changedIds;
}

/**
 * Changes the flag on a window of the caller's messages in a narrow; returns the window and
 * the ids whose flag changed.
 */
export async function updateFlagsForNarrow(
  scope: CallerScope,
  request: NarrowFlagsRequest,
): Promise<{ page: MessagePage; changedIds: number[] }> {
  const { db, directory, caller } = scope;
  if (request.numBefore > 0 && request.numAfter > 0 && !request.includeAnchor) {
    throw badRequest('The anchor can only be excluded at an end of the range');
  }
  checkEditableFlag(request.flag);
  // Upstream shrinks oversized ranges rather than refusing them.
  const numBefore = Math.min(request.numBefore, Math.max(MAX_MESSAGES_PER_UPDATE - request.numAfter, MAX_MESSAGES_PER_UPDATE / 2));
  const numAfter = Math.min(request.numAfter, MAX_MESSAGES_PER_UPDATE - numBefore);
  const terms = parseNarrow(request.narrow, directory, caller);
  const page = await findMessageIds(db, directory, caller, terms, {
    anchor: request.anchor,
    numBefore,
    numAfter,
    includeAnchor: request.includeAnchor,
  });
  const changedIds = await updateMessageFlags(scope, { op: request.op, flag: request.flag, messageIds: page.ids });
  return { page, changedIds };
}

/** Marks every unread message of the caller read, walking only the sparse unread index. */
export async function markAllAsRead(scope: CallerScope): Promise<void> {
  const { db, caller: user } = scope;
  const unread = await unreadRows(db, user.id);
  await db.user_messages.bulkPut(unread.map((row) => withIndexColumns({ ...row, flags: row.flags | FLAG_BITS.read })));
  scope.notify({
    event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true },
    users: [user.id],
    changedMessageIds: unread.map((row) => row.message_id),
  });
}

/** Marks the caller's unread messages in a channel they can read as read. */
export async function markStreamAsRead(scope: CallerScope, channelId: number): Promise<void> {
  const channel = await readableChannel(scope.db, scope.directory, scope.caller, channelId);
  await markChannelAsRead(scope, scope.caller, channel);
}

/** Marks the caller's unread messages in a topic read; the caller must have received one there. */
export async function markTopicAsRead(scope: CallerScope, request: { channelId: number; topicName: string }): Promise<void> {
  const { db, directory, caller } = scope;
  const channel = await readableChannel(db, directory, caller, request.channelId);
  const topic = normalizeTopic(request.topicName, directory.realm);
  if (!(await hasReceivedInTopic(db, caller.id, channel, topic))) {
    throw badRequest(`No such topic '${request.topicName}'`);
  }
  await markChannelAsRead(scope, caller, channel, topic);
}

/** The caller's channel, for marking it read: unknown and invisible channels are refused alike. */
async function readableChannel(db: RealmDatabase, directory: RealmDirectory, user: UserRow, channelId: number): Promise<ChannelRow> {
  const channel = directory.channels.get(channelId);
  const subscribed = channel ? (await db.subscriptions.get([user.id, channel.id]))?.active === 1 : false;
  if (!channel || !canReadChannel(user, channel, subscribed)) throw streamDoesNotExistById(channelId);
  return channel;
}

/**
 * Marks the caller's unread messages in a channel (or one of its topics) read. Walks the sparse
 * unread index, so the cost follows the caller's unread count, never the channel's size.
 */
export async function markChannelAsRead(scope: ActionScope, user: UserRow, channel: ChannelRow, topic?: string): Promise<void> {
  const { db } = scope;
  const unread = await unreadRows(db, user.id);
  const messages = await db.messages.bulkGet(unread.map((row) => row.message_id));
  const topicKey = topic?.toLowerCase();
  const inChannel = unread.filter((_, index) => {
    const message = messages[index];
    return message?.stream_id === channel.id && (topicKey === undefined || message.topic_key === topicKey);
  });
  await db.user_messages.bulkPut(inChannel.map((row) => withIndexColumns({ ...row, flags: row.flags | FLAG_BITS.read })));
  scope.notify({
    event: {
      type: 'update_message_flags',
      op: 'add',
      operation: 'add',
      flag: 'read',
      messages: inChannel.map((row) => row.message_id),
      all: false,
    },
    users: [user.id],
  });
}

/** Whether the caller received any message in the topic ("No such topic" otherwise). */
async function hasReceivedInTopic(db: RealmDatabase, userId: number, channel: ChannelRow, topic: string): Promise<boolean> {
  const key = topic.toLowerCase();
  const ids = await db.messages
    .where('[stream_id+topic_key+id]')
    .between([channel.id, key, 0], [channel.id, key, Infinity])
    .primaryKeys();
  const rows = await db.user_messages.bulkGet(ids.map((id): [number, number] => [userId, id]));
  return rows.some((row) => row !== undefined);
}

function unreadRows(db: RealmDatabase, userId: number): Promise<UserMessageRow[]> {
  return db.user_messages
    .where('[user_id+unread+message_id]')
    .between([userId, 1, 0], [userId, 1, Infinity])
    .toArray();
}

/**
 * What clients need to put messages marked unread back into their unread counts (upstream's
 * `message_details`): the conversation of each message, and whether it mentions the caller.
 */
export async function unreadDetails(
  db: RealmDatabase,
  user: UserRow,
  rows: readonly UserMessageRow[],
): Promise<Record<string, Record<string, unknown>>> {
  const messages = await db.messages.bulkGet(rows.map((row) => row.message_id));
  const mutedChannels = new Set(
    (await activeSubscriptionsOf(db, user.id)).filter((s) => s.is_muted).map((s) => s.channel_id),
  );
  const details: Record<string, Record<string, unknown>> = {};
  rows.forEach((row, index) => {
    const message = messages[index] as MessageRow;
    const detail: Record<string, unknown> =
      message.type === 'stream'
        ? { type: 'stream', stream_id: message.stream_id, topic: message.topic, unmuted_stream_msg: !mutedChannels.has(message.stream_id!) }
        : { type: 'private', user_ids: dmParticipants(message.dm_key!).filter((id) => id !== user.id) };
    if (row.flags & ANY_MENTION) detail.mentioned = true;
    details[String(row.message_id)] = detail;
  });
  return details;
}
