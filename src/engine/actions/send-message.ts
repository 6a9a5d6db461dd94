import { messageRenderOptions } from '../settings/user-settings.ts';
import { badRequest, streamDoesNotExistById, streamDoesNotExistByName } from '../errors/api-error.ts';
import { canReadChannel, channelViewerIds } from '../permissions/channel-access.ts';
import { apiEmail, userByVisibleEmail } from '../permissions/email-visibility.ts';
import { flagList, userMessageRow } from '../storage/flags.ts';
import { normalizeContent, normalizeTopic, searchWords } from '../validation/message-limits.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { dmKey, recipientFor } from '../storage/recipients.ts';
import { groupMemberIds, isInGroupSetting } from '../permissions/system-groups.ts';
import { renderMessage } from '../markdown/render-message.ts';
import { claimAttachments } from './uploads.ts';
import { nextId, type RealmDatabase } from '../storage/database.ts';
import { addNewMessage } from '../storage/message-ids.ts';
import { type ChannelRow, FLAG_BITS, type MessageRow, type UserRow } from '../storage/rows.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';
import { alertedRecipients } from './alert-words.ts';
import { widgetOf } from './widgets.ts';
import { channelSubscriberIds, usersMuting } from '../directory/cached-reads.ts';

/** A channel named by id or by name; a DM recipient by id or by API email. */
export type ChannelRef = { id: number } | { name: string };
export type UserRef = { id: number } | { email: string };

export interface SendMessageInput {
  sender: UserRow;
  to: { kind: 'channel'; channel: ChannelRef; topic: string | undefined } | { kind: 'direct'; users: UserRef[] };
  content: string;
  client: string;
  /** Default: upstream's heuristic, read for interactive clients. */
  readBySender?: boolean;
  /** Others for whom the message starts out read, as upstream's notices for the user who caused them. */
  readBy?: readonly number[];
  /** Only these recipients get it unread (upstream's `limit_unread_user_ids`): a resolve note is news only to the topic's participants. */
  unreadOnlyFor?: ReadonlySet<number>;
  /** The scenario loader backdates messages; live sends use the action's time. */
  timestamp?: number;
  queueId?: string;
  localId?: string;
}

/** POST /messages as the caller sent it: the sender and client are the request's own. */
export type SendRequest = Pick<SendMessageInput, 'to' | 'content' | 'readBySender' | 'queueId' | 'localId'>;

/** Clients whose users read their own messages as they send them (upstream's heuristic). */
const INTERACTIVE_CLIENTS = new Set(['website', 'ZulipMobile', 'ZulipFlutter', 'ZulipElectron', 'ZulipTerminal', 'ZulipDesktop', 'OfflineRealm']);

/** Sends the caller's message, from the client that made the request. */
export function sendCallerMessage(scope: CallerScope, request: SendRequest): Promise<{ id: number }> {
  return sendMessage(scope, scope.directory, { ...request, sender: scope.caller, client: scope.clientName });
}

/**
 * Sends one message: checks the target and the sender's permission, stores the message and
 * each recipient's flags, and notifies the recipients (plus a first-message channel update).
 */
export async function sendMessage(scope: ActionScope, directory: RealmDirectory, input: SendMessageInput): Promise<{ id: number }> {
  const { db } = scope;
  const { sender } = input;
  const content = normalizeContent(input.content);
  const target = await resolveTarget(db, directory, sender, input.to);

  const rendered = renderMessage(content, directory.markdownRealm(), messageRenderOptions(sender));
  const timestamp = input.timestamp ?? scope.now;
  const topic = target.kind === 'channel' ? target.topic : '';
  const row: MessageRow = {
    // Taken when the row is added (below).
    id: 0,
    sender_id: sender.id,
    type: target.kind === 'channel' ? 'stream' : 'private',
    topic,
    recipient_id: await recipientIdOf(db, directory, sender, target),
    content,
    rendered_content: rendered.html,
    timestamp,
    client: input.client,
    is_me_message: rendered.isMeMessage,
    has_link: rendered.hasLink,
    has_image: rendered.hasImage,
    // Upstream's meaning: an upload was claimed (below); a link to a file the sender may not share does not count.
    has_attachment: false,
    words: searchWords(content, topic),
  };
  if (target.kind === 'channel') {
    row.stream_id = target.channel.id;
    row.topic_key = topic.toLowerCase();
  } else {
    row.dm_key = target.dmKey;
  }
  // `/poll` and `/todo` start a widget: its description is the message's first submessage, the sender's (upstream's `do_widget_post_save_actions`).
  const widget = widgetOf(content);
  if (widget) row.submessages = [{ id: await nextId(db, 'submessage'), sender_id: sender.id, msg_type: 'widget', content: JSON.stringify(widget) }];

  const topicParticipants = rendered.topicWildcard ? await topicParticipantIds(db, row) : new Set<number>();
  const groupMentioned = new Set<number>();
  for (const groupId of rendered.mentionedGroupIds) {
    for (const userId of groupMemberIds(groupId, directory.users.values(), directory.groups)) groupMentioned.add(userId);
  }
  const alerted = await alertedRecipients(db, directory, content, target.recipients, sender.id);
  const muting = await usersMuting(db, sender.id);
  const readBySender = input.readBySender ?? INTERACTIVE_CLIENTS.has(input.client);
  const isDirect = target.kind === 'direct';
  const flagsByUser = new Map<number, number>();
  for (const userId of target.recipients) {
    let bits = 0;
    if (userId === sender.id && readBySender) bits |= FLAG_BITS.read;
    if (input.readBy?.includes(userId) || muting.has(userId) || (input.unreadOnlyFor && !input.unreadOnlyFor.has(userId))) bits |= FLAG_BITS.read;
    if (rendered.mentionedUserIds.includes(userId)) bits |= FLAG_BITS.mentioned;
    if (groupMentioned.has(userId)) bits |= FLAG_BITS.group_mentioned;
    if (alerted.has(userId)) bits |= FLAG_BITS.has_alert_word;
    if (rendered.streamWildcard) bits |= FLAG_BITS.stream_wildcard_mentioned;
    if (rendered.topicWildcard && (isDirect || topicParticipants.has(userId))) bits |= FLAG_BITS.topic_wildcard_mentioned;
    flagsByUser.set(userId, bits);
  }

  const id = await addNewMessage(db, row);
  await db.user_messages.bulkAdd([...flagsByUser].map(([userId, bits]) => userMessageRow(userId, row, bits)));
  if (await claimAttachments(scope, directory, row, rendered.attachmentPathIds)) {
    row.has_attachment = true;
    await db.messages.update(id, { has_attachment: true });
  }

  // The directory may predate an earlier send of this action (the scenario loader replays many
  // messages with one), so a null there is confirmed against the table before it is filled.
  if (target.kind === 'channel' && target.channel.first_message_id === null && (await db.channels.get(target.channel.id))?.first_message_id === null) {
    await db.channels.update(target.channel.id, { first_message_id: id });
    scope.notify({
      event: { type: 'stream', op: 'update', stream_id: target.channel.id, name: target.channel.name, property: 'first_message_id', value: id },
      users: channelViewerIds(directory, target.channel, target.recipients),
    });
  }

  scope.notify({
    event: { type: 'message' },
    users: [...flagsByUser.keys()],
    perUser: new Map([...flagsByUser].map(([userId, bits]) => [userId, { flags: flagList(bits) }])),
    allPublicStreamsChannelId: target.kind === 'channel' && !target.channel.invite_only ? target.channel.id : undefined,
    message: { row, directory, senderQueueId: input.queueId, localId: input.localId },
  });
  return { id };
}

/** Where a message goes, as checked for its sender. */
export type MessageTarget = ChannelTarget | DirectTarget;

/**
 * Checks a target as a send does (the channel exists and the sender may post there with this
 * topic; the recipients exist and are active) and writes nothing: scheduled messages run the
 * same checks when they are created, edited and delivered.
 */
export async function resolveTarget(
  db: RealmDatabase,
  directory: RealmDirectory,
  sender: UserRow,
  to: SendMessageInput['to'],
): Promise<MessageTarget> {
  return to.kind === 'channel' ? channelTarget(db, directory, sender, to) : directTarget(directory, sender, to.users);
}

export interface ChannelTarget {
  kind: 'channel';
  channel: ChannelRow;
  topic: string;
  recipients: number[];
}

export interface DirectTarget {
  kind: 'direct';
  dmKey: string;
  recipients: number[];
}

async function channelTarget(
  db: RealmDatabase,
  directory: RealmDirectory,
  sender: UserRow,
  to: { channel: ChannelRef; topic: string | undefined },
): Promise<ChannelTarget> {
  const ref = to.channel;
  const channel = 'id' in ref ? directory.channels.get(ref.id) : directory.channelByName(ref.name);
  if (!channel || channel.is_archived) {
    throw 'id' in ref ? streamDoesNotExistById(ref.id) : streamDoesNotExistByName(ref.name);
  }
  const subscriberIds = (await channelSubscriberIds(db, channel.id)).filter((id) => directory.users.get(id)?.is_active);
  const subscribed = subscriberIds.includes(sender.id);
  // System bots (the notification bot) post anywhere, as upstream's cross-realm bots do.
  if (!sender.is_system_bot && !canReadChannel(sender, channel, subscribed)) {
    throw badRequest(`Not authorized to send to channel '${channel.name}'`);
  }
  if (!sender.is_system_bot && !isInGroupSetting(sender, channel.can_send_message_group, directory.groups)) {
    throw badRequest('You do not have permission to post in this channel.');
  }
  if (to.topic === undefined) throw badRequest('Missing topic');
  const topic = normalizeTopic(to.topic, directory.realm);
  checkTopicPolicy(channel, topic, directory);
  return {
    kind: 'channel',
    channel,
    topic,
    recipients: subscriberIds,
  };
}

function checkTopicPolicy(channel: ChannelRow, topic: string, directory: RealmDirectory): void {
  const policy = channel.topics_policy === 'inherit' ? directory.realm.topics_policy : channel.topics_policy;
  if (policy === 'empty_topic_only' && topic !== '') {
    throw badRequest(`Only the "${directory.realm.empty_topic_display_name}" topic is allowed in this channel.`);
  }
  if (policy === 'disable_empty_topic' && topic === '') {
    throw badRequest(
      channel.topics_policy === 'inherit'
        ? 'Topics are required in this organization.'
        : `Sending messages to "${directory.realm.empty_topic_display_name}" is not allowed in this channel.`,
    );
  }
}

function directTarget(directory: RealmDirectory, sender: UserRow, refs: UserRef[]): DirectTarget {
  if (refs.length === 0) throw badRequest('Message must have recipients');
  const users = refs.map((ref) => {
    const user = 'id' in ref ? directory.users.get(ref.id) : userByVisibleEmail(directory, sender, ref.email);
    if (!user) throw badRequest('id' in ref ? `Invalid user ID ${ref.id}` : `Invalid email '${ref.email}'`);
    if (!user.is_active) throw badRequest(`'${apiEmail(directory.realm, sender, user)}' is no longer using Zulip.`);
    return user;
  });
  const participants = [...new Set([sender.id, ...users.map((u) => u.id)])];
  return { kind: 'direct', dmKey: dmKey(participants), recipients: participants };
}

/**
 * As upstream: a 1:1 (or self) conversation is addressed to the other user's personal
 * recipient; a group conversation has a recipient of its own (see `recipientFor`).
 */
/**
 * As upstream: a channel message goes to the channel's recipient; a 1:1 (or self) conversation
 * to the other user's personal recipient; a group conversation to a recipient of its own.
 */
async function recipientIdOf(
  db: RealmDatabase,
  directory: RealmDirectory,
  sender: UserRow,
  target: ChannelTarget | DirectTarget,
): Promise<number> {
  if (target.kind === 'channel') return target.channel.recipient_id;
  if (target.recipients.length > 2) return recipientFor(db, `dm:${target.dmKey}`);
  const other = target.recipients.find((id) => id !== sender.id);
  return other === undefined ? sender.recipient_id : directory.user(other).recipient_id;
}

/** Users who have sent a message in the message's topic (for @**topic** mentions). */
async function topicParticipantIds(db: RealmDatabase, row: MessageRow): Promise<Set<number>> {
  const ids = new Set<number>([row.sender_id]);
  await db.messages
    .where('[stream_id+topic_key+id]')
    .between([row.stream_id, row.topic_key, 0], [row.stream_id, row.topic_key, Infinity])
    .each((m) => ids.add(m.sender_id));
  return ids;
}

