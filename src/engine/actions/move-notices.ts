/**
 * The notification bot's notes about moved messages, as upstream's send_message_moved_breadcrumbs:
 * one in the new location (unless `send_notification_to_new_thread` is off, or the move only
 * resolved or unresolved the topic) and one in the old location when
 * `send_notification_to_old_thread` is on. Each is marked read for the mover.
 */
import type { RealmDirectory } from '../directory/realm-directory.ts';
import type { ChannelRow, UserRow } from '../storage/rows.ts';
import type { CallerScope } from '../services/action-scope.ts';
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
