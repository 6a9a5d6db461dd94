import { topicLinks } from '../markdown/linkifiers.ts';
import type { MessageRow, ReactionRow, UserRow } from '../storage/rows.ts';
import { dmParticipants } from '../storage/recipients.ts';
import { apiEmail } from '../permissions/email-visibility.ts';
import { avatarUrl } from './avatars.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';

export interface WireOptions {
  /** Who is looking: decides which emails are real and the 1:1 `recipient_id`. */
  viewer: UserRow | null;
  applyMarkdown: boolean;
  /** When false, the empty topic is shown as the realm's empty-topic display name. */
  allowEmptyTopicName: boolean;
}

export interface DisplayRecipientUser {
  id: number;
  email: string;
  full_name: string;
  is_mirror_dummy: boolean;
}

/** The message object of the API (spec 2.3 plus upstream's remaining fields), without `flags`. */
export function messageToWire(
  row: MessageRow,
  reactions: readonly ReactionRow[],
  directory: RealmDirectory,
  options: WireOptions,
): Record<string, unknown> {
  const { realm } = directory;
  const sender = directory.user(row.sender_id);
  const viewer = options.viewer;
  const wire: Record<string, unknown> = {
    id: row.id,
    sender_id: sender.id,
    sender_full_name: sender.full_name,
    sender_email: apiEmail(realm, viewer, sender),
    sender_realm_str: realm.host.split('.')[0],
    avatar_url: avatarUrl(sender),
    client: row.client,
    content: options.applyMarkdown ? row.rendered_content : row.content,
    content_type: options.applyMarkdown ? 'text/html' : 'text/x-markdown',
    is_me_message: row.is_me_message,
    timestamp: row.timestamp,
    // Without the `user` object upstream removed at feature level 328 (reaction events keep it).
    reactions: reactions.map((r) => ({
      emoji_name: r.emoji_name,
      emoji_code: r.emoji_code,
      reaction_type: r.reaction_type,
      user_id: r.user_id,
    })),
    submessages: (row.submessages ?? []).map(({ id, sender_id, msg_type, content }) => ({ msg_type, content, message_id: row.id, sender_id, id })),
  };
  if (row.type === 'stream') {
    const channel = directory.channels.get(row.stream_id!);
    wire.type = 'stream';
    wire.stream_id = row.stream_id;
    wire.display_recipient = channel?.name ?? '';
    wire.recipient_id = row.recipient_id;
    wire.subject = displayTopic(row.topic, directory, options.allowEmptyTopicName);
    wire.topic_links = topicLinks(row.topic, directory.linkifiers);
  } else {
    const participants = dmParticipants(row.dm_key!);
    wire.type = 'private';
    wire.display_recipient = participants.map((id): DisplayRecipientUser => {
      const user = directory.user(id);
      return { id, email: apiEmail(realm, viewer, user), full_name: user.full_name, is_mirror_dummy: false };
    });
    // An incoming 1:1 message carries the sender's personal recipient, so that recipient_id
    // names the conversation from the viewer's side.
    wire.recipient_id =
      participants.length === 2 && viewer && viewer.id !== row.sender_id ? sender.recipient_id : row.recipient_id;
    wire.subject = '';
    wire.topic_links = [];
  }
  if (row.last_edit_timestamp !== undefined) wire.last_edit_timestamp = row.last_edit_timestamp;
  if (row.last_moved_timestamp !== undefined) wire.last_moved_timestamp = row.last_moved_timestamp;
  if (row.edit_history && directory.realm.allow_edit_history) wire.edit_history = row.edit_history;
  return wire;
}

export function displayTopic(topic: string, directory: RealmDirectory, allowEmptyTopicName: boolean): string {
  return topic === '' && !allowEmptyTopicName ? directory.realm.empty_topic_display_name : topic;
}
