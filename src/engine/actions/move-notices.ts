/**
 * The notification bot's notes about moved messages, as upstream's send_message_moved_breadcrumbs:
 * one in the new location (unless `send_notification_to_new_thread` is off, or the move only
 * resolved or unresolved the topic) and one in the old location when
 * `send_notification_to_old_thread` is on. Each is marked read for the mover.
 */
import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { ChannelRow, UserRow } from '../storage/rows.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { isReplicaDatabase } from '../storage/replica-database.ts';
import { deleteConversationMessages } from './delete-message.ts';
import { channelMessageUrl, silentMention, topicLinkSyntax } from './message-links.ts';
import { sendMessage } from './send-message.ts';
import type { PropagateMode } from './propagate-mode.ts';

export interface MoveNoticeRequest {
  targetMessageId: number;
  from: { channel: ChannelRow; topic: string };
  to: { channel: ChannelRow; topic: string };
  movedIds: number[];
  propagateMode: PropagateMode;
  /** Whether the move only resolved or unresolved the topic (no new-location note then). */
  resolveToggleOnly: boolean;
  notifyOld: boolean;
  notifyNew: boolean;
  /** The visible messages left in the old topic, and those already in the new one (moved ones excluded). */
  visibleLeftBehind: number;
  visibleAlreadyThere: number;
}

export async function postMoveNotices(scope: CallerScope, request: MoveNoticeRequest): Promise<void> {
  const { directory, caller: mover } = scope;
  const count = request.movedIds.length;
  if (count === 0) return;
  const movedAll = request.propagateMode === 'change_all' || request.visibleLeftBehind === 0;
  const user = silentMention(mover);
  const { from, to } = request;
  const oldLocation = topicLinkSyntax(from.channel.id, from.channel.name, from.topic, directory);
  const newLocation = topicLinkSyntax(to.channel.id, to.channel.name, to.topic, directory);
  if (request.notifyNew && (from.channel.id !== to.channel.id || !request.resolveToggleOnly)) {
    let text: string;
    if (movedAll && request.visibleAlreadyThere === 0) text = `This topic was moved here from ${oldLocation} by ${user}.`;
    else if (count === 1) {
      const link = channelMessageUrl(directory, to.channel.id, to.topic, request.targetMessageId);
      text = `[A message](${link}) was moved here from ${oldLocation} by ${user}.`;
    } else text = `${count} messages were moved here from ${oldLocation} by ${user}.`;
    await post(scope, directory, mover, to, text);
  }
  if (request.notifyOld) {
    let text: string;
    if (movedAll) text = `This topic was moved to ${newLocation} by ${user}.`;
    else if (count === 1) text = `A message was moved from this topic to ${newLocation} by ${user}.`;
    else text = `${count} messages were moved from this topic to ${newLocation} by ${user}.`;
    await post(scope, directory, mover, from, text);
  }
}

async function post(scope: CallerScope, directory: RealmDirectory, mover: UserRow, where: { channel: ChannelRow; topic: string }, content: string) {
  const botId = directory.realm.notification_bot_id;
  const bot = botId === null ? undefined : directory.users.get(botId);
  if (!bot) return;
  await sendMessage(scope, directory, {
    sender: bot,
    to: { kind: 'channel', channel: { id: where.channel.id }, topic: where.topic },
    content,
    client: 'Internal',
    readBySender: false,
    readBy: [mover.id],
  });
}

/** Upstream's RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS: a toggle this soon after the last one takes its note back. */
const RESOLVE_UNDO_GRACE_SECONDS = 60;
const RESOLVE_NOTE = /^@_\*\*[^*]+\*\* has marked this topic as (un)?resolved\.$/;

/**
 * The notification bot's note on resolving or unresolving a topic, as upstream's
 * maybe_send_resolve_topic_notifications: "{user} has marked this topic as resolved." in the
 * topic under its new name (of the channel it was in), unread only for those who sent or reacted
 * to the moved messages. A toggle within a minute of the last one, whose note is still the
 * topic's newest message, deletes that note instead: a resolve undone at once leaves no trace.
 * Not on a replica: the note is the hub's message, which the pull brings.
 */
export async function postResolveNotice(scope: CallerScope, request: { channel: ChannelRow; topic: string; resolved: boolean; movedIds: number[] }): Promise<void> {
  const { db, directory, caller: mover } = scope;
  const botId = directory.realm.notification_bot_id;
  const bot = botId === null ? undefined : directory.users.get(botId);
  if (!bot || request.movedIds.length === 0 || (await isReplicaDatabase(db))) return;
  const topicKey = request.topic.toLowerCase();
  const newest = await db.messages
    .where('[stream_id+topic_key+id]')
    .between([request.channel.id, topicKey, 0], [request.channel.id, topicKey, Infinity])
    .last();
  if (newest && newest.sender_id === bot.id && RESOLVE_NOTE.test(newest.content) && scope.now - newest.timestamp <= RESOLVE_UNDO_GRACE_SECONDS) {
    await deleteConversationMessages(scope, directory, [newest]);
    return;
  }
  const moved = await db.messages.bulkGet(request.movedIds);
  const reactions = await db.reactions.where('message_id').anyOf(request.movedIds).toArray();
  const participants = new Set([...moved.flatMap((row) => (row ? [row.sender_id] : [])), ...reactions.map((reaction) => reaction.user_id)]);
  await sendMessage(scope, directory, {
    sender: bot,
    to: { kind: 'channel', channel: { id: request.channel.id }, topic: request.topic },
    content: `${silentMention(mover)} has marked this topic as ${request.resolved ? 'resolved' : 'unresolved'}.`,
    client: 'Internal',
    readBySender: false,
    unreadOnlyFor: participants,
  });
}
