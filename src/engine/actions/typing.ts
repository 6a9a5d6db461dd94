/**
 * Typing notifications: stateless, nothing is stored. The notice goes to everyone who would
 * receive the message being typed (the typist included, as upstream does) and who wants typing
 * notifications; channel typing reaches only queues with `stream_typing_notifications`.
 */
import type { Notice } from '../events/event-types.ts';
import { badRequest } from '../errors/api-error.ts';
import { userSettingsObject } from '../settings/user-settings.ts';
import { canReadChannel } from '../permissions/channel-access.ts';
import { apiEmail } from '../permissions/email-visibility.ts';
import { normalizeTopic } from '../validation/message-limits.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { isInGroupSetting } from '../permissions/system-groups.ts';
import type { RealmDatabase } from '../storage/database.ts';
import type { UserRow } from '../storage/rows.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { loadAccessibleMessage } from '../narrow/message-access.ts';
import { dmParticipants } from '../storage/recipients.ts';
import { checkCanEditContent } from './edit-message.ts';

export type TypingOp = 'start' | 'stop';

export type TypingRequest =
  | { kind: 'direct'; op: TypingOp; to: number[] | undefined }
  | { kind: 'stream'; op: TypingOp; streamId: number | undefined; topic: string | undefined };

const setting = (directory: RealmDirectory, user: UserRow, name: string): boolean =>
  userSettingsObject(user, directory.realm)[name] === true;

/** Checks the caller's typing request and sends its notice; nothing is written. */
export async function sendTypingNotice(scope: CallerScope, request: TypingRequest): Promise<void> {
  const { db, directory, caller } = scope;
  scope.notify(request.kind === 'direct' ? directTyping(directory, caller, request) : await channelTyping(db, directory, caller, request));
}

function directTyping(directory: RealmDirectory, sender: UserRow, request: { op: TypingOp; to: number[] | undefined }): Notice {
  if (request.to === undefined) throw badRequest("Missing 'to' argument");
  if (request.to.length === 0) throw badRequest("Empty 'to' list");
  if (!setting(directory, sender, 'send_private_typing_notifications')) {
    throw badRequest('User has disabled typing notifications for direct messages');
  }
  const recipients = [...new Set([...request.to, sender.id])].map((id) => {
    const user = directory.users.get(id);
    if (!user) throw badRequest(`Invalid user ID ${id}`);
    return user;
  });
  const audience = recipients.filter((u) => u.is_active && setting(directory, u, 'receives_typing_notifications'));
  return {
    event: { type: 'typing', op: request.op, message_type: 'direct' },
    users: audience.map((u) => u.id),
    perUser: new Map(
      audience.map((viewer) => [
        viewer.id,
        {
          sender: addressOf(directory, viewer, sender),
          recipients: recipients.map((u) => addressOf(directory, viewer, u)),
        },
      ]),
    ),
  };
}

async function channelTyping(
  db: RealmDatabase,
  directory: RealmDirectory,
  sender: UserRow,
  request: { op: TypingOp; streamId: number | undefined; topic: string | undefined },
): Promise<Notice> {
  if (request.streamId === undefined) throw badRequest('Missing channel ID');
  if (request.topic === undefined) throw badRequest('Missing topic');
  if (!setting(directory, sender, 'send_stream_typing_notifications')) {
    throw badRequest('User has disabled typing notifications for channel messages');
  }
  const channel = directory.channels.get(request.streamId);
  const subscriberIds = channel
    ? (await db.subscriptions.where('[channel_id+active]').equals([channel.id, 1]).toArray()).map((s) => s.user_id)
    : [];
  if (!channel || channel.is_archived || !canReadChannel(sender, channel, subscriberIds.includes(sender.id))) {
    throw badRequest('Invalid channel ID');
  }
  if (!isInGroupSetting(sender, channel.can_send_message_group, directory.groups)) {
    throw badRequest('You do not have permission to post in this channel.');
  }
  const audience = subscriberIds
    .map((id) => directory.users.get(id))
    .filter((u): u is UserRow => u !== undefined && u.is_active && setting(directory, u, 'receives_typing_notifications'));
  return {
    event: {
      type: 'typing',
      op: request.op,
      message_type: 'stream',
      stream_id: channel.id,
      topic: normalizeTopic(request.topic, directory.realm),
    },
    users: audience.map((u) => u.id),
    perUser: new Map(audience.map((viewer) => [viewer.id, { sender: addressOf(directory, viewer, sender) }])),
    emptyTopicDisplayName: directory.realm.empty_topic_display_name,
  };
}

/** `{user_id, email}` with the email this viewer may see. */
function addressOf(directory: RealmDirectory, viewer: UserRow, user: UserRow): { user_id: number; email: string } {
  return { user_id: user.id, email: apiEmail(directory.realm, viewer, user) };
}

/**
 * POST /messages/{message_id}/typing: the caller is editing a message they may edit. As
 * upstream, a `typing_edit_message` event goes to whoever would be told of the edit (the
 * channel's subscribers, or the conversation's participants) and wants typing notifications.
 */
export async function sendEditTypingNotice(scope: CallerScope, { messageId, op }: { messageId: number; op: TypingOp }): Promise<void> {
  const { db, directory, caller } = scope;
  const { row } = await loadAccessibleMessage(db, directory, caller, messageId);
  checkCanEditContent(caller, row, directory, scope.now, 0);
  const wants = (id: number) => {
    const user = directory.users.get(id);
    return user !== undefined && user.is_active && setting(directory, user, 'receives_typing_notifications');
  };
  if (row.type === 'stream') {
    if (!setting(directory, caller, 'send_stream_typing_notifications')) {
      throw badRequest('User has disabled typing notifications for channel messages');
    }
    const subscribers = await db.subscriptions.where('[channel_id+active]').equals([row.stream_id!, 1]).toArray();
    const recipient = { type: 'channel', channel_id: row.stream_id, topic: row.topic };
    scope.notify({
      event: { type: 'typing_edit_message', op, sender_id: caller.id, message_id: row.id, recipient },
      users: subscribers.map((s) => s.user_id).filter(wants),
    });
    return;
  }
  if (!setting(directory, caller, 'send_private_typing_notifications')) {
    throw badRequest('User has disabled typing notifications for direct messages');
  }
  const users = dmParticipants(row.dm_key!).filter(wants);
  scope.notify({
    event: { type: 'typing_edit_message', op, sender_id: caller.id, message_id: row.id, recipient: { type: 'direct', user_ids: users } },
    users,
  });
}
