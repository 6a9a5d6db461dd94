import { messageRenderOptions } from '../settings/user-settings.ts';
import type { EngineEvent } from '../events/event-types.ts';
import { ApiError, badRequest, invalidMessage, streamDoesNotExistById } from '../errors/api-error.ts';
import { refuseOnReplica } from '../storage/replica-database.ts';
import { canReadChannel, canReadChannelHistory } from '../permissions/channel-access.ts';
import { flagList, placeColumns, userMessageRow, withIndexColumns } from '../storage/flags.ts';
import {
  MAX_TOPIC_LENGTH,
  normalizeContent,
  normalizeTopic,
  RESOLVED_TOPIC_PREFIX,
  searchWords,
  TOPIC_TRUNCATED_SUFFIX,
  truncateChars,
} from '../validation/message-limits.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { realmPermissionGroup } from '../permissions/realm-permissions.ts';
import { groupMemberIds, isInGroupSetting } from '../permissions/system-groups.ts';
import { topicLinks } from '../markdown/linkifiers.ts';
import { renderMessage } from '../markdown/render-message.ts';
import { loadAccessibleMessage } from '../narrow/message-access.ts';
import type { RealmDatabase } from '../storage/database.ts';
import {
  type ChannelRow,
  type EditHistoryEntry,
  FLAG_BITS,
  type MessageRow,
  ROLE_ADMIN,
  ROLE_MODERATOR,
  type UserMessageRow,
  type UserRow,
} from '../storage/rows.ts';
import { activeSubscriberIds, deleteMessageEvent } from './delete-message.ts';
import { alertedRecipients } from './alert-words.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';
import type { AttachmentWire } from '../wire/attachment-wire.ts';
import { updateAttachmentClaims } from './uploads.ts';
import { postMoveNotices, postResolveNotice } from './move-notices.ts';
import type { PropagateMode } from './propagate-mode.ts';

/** PATCH /messages/{id} as the client sent it (topic and content still raw). */
export interface EditRequest {
  messageId: number;
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  /** Upstream's defaults: no note in the old location, one in the new. */
  notifyOldThread?: boolean;
  notifyNewThread?: boolean;
}

/** A validated edit, applied without further checks (the scenario loader replays these). */
export interface MessageEdit {
  message: MessageRow;
  editor: UserRow;
  timestamp: number;
  /** Normalized new content. */
  content?: string;
  /** Normalized new topic (channel messages only). */
  topic?: string;
  /** The channel to move to (channel messages only). */
  channel?: ChannelRow;
  propagateMode: PropagateMode;
}

export interface EditOutcome {
  /** The sender's uploads that no message links any more since this edit. */
  detachedUploads: AttachmentWire[];
  /** The messages whose topic or channel changed (none for a content edit). */
  movedIds: number[];
}

/** Upstream allows 20 s past every edit and move limit, for clients' countdowns and slow networks. */
const LIMIT_BUFFER_SECONDS = 20;

const MENTION_BITS =
  FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.group_mentioned;

/** Checks a PATCH /messages/{id} request against upstream's rules, then applies it. */
export async function editMessage(scope: CallerScope, request: EditRequest): Promise<EditOutcome> {
  const { db, directory, caller: editor } = scope;
  const { realm } = directory;
  const { row } = await loadAccessibleMessage(db, directory, editor, request.messageId);
  if (request.content !== undefined) {
    checkCanEditContent(editor, row, directory, scope.now);
    // A widget's state lives in its submessages, which an edit of the text would leave behind (upstream refuses it too).
    if ((row.submessages?.length ?? 0) > 0) throw badRequest('Widgets cannot be edited.');
  }

  let topic = request.topic === undefined ? undefined : normalizeTopic(request.topic, realm);
  if (topic === row.topic) topic = undefined;
  const streamId = request.streamId === row.stream_id ? undefined : request.streamId;
  validatePayload(row, request, topic, streamId, directory);

  const content = request.content === undefined ? undefined : normalizeContent(request.content.trimEnd() === '' ? '(deleted)' : request.content);
  const origChannel = row.type === 'stream' ? directory.channels.get(row.stream_id!) : undefined;
  // Only a replica holds a channel message without its channel (received there, the channel out of its sight since): a move is then the hub's to judge.
  if (row.type === 'stream' && !origChannel && (topic !== undefined || streamId !== undefined)) {
    await refuseOnReplica(db);
    throw invalidMessage();
  }
  let channel: ChannelRow | undefined;
  if (streamId !== undefined) channel = await accessTargetChannel(db, directory, editor, streamId);
  const target = channel ?? origChannel;
  if (target && (topic !== undefined || channel !== undefined)) checkTopicPolicy(target, topic ?? row.topic, directory);

  if (origChannel && topic !== undefined) {
    const resolveToggle = isResolveToggle(row.topic, topic);
    // As upstream, resolving is its own permission, not renaming's.
    if (resolveToggle && !canResolveTopics(editor, directory)) {
      throw badRequest("You don't have permission to resolve topics in this channel.");
    }
    if (!resolveToggle && !canMoveWithinChannel(editor, origChannel, directory)) {
      throw badRequest("You don't have permission to edit this message");
    }
    const limit = realm.move_messages_within_stream_limit_seconds;
    if (!resolveToggle && !isModerator(editor) && limit !== null && scope.now - row.timestamp > limit + LIMIT_BUFFER_SECONDS) {
      throw badRequest("The time limit for editing this message's topic has passed.");
    }
  }
  if (origChannel && channel) {
    if (!canMoveOutOfChannel(editor, origChannel, directory)) {
      throw badRequest("You don't have permission to move this message");
    }
    if (!isInGroupSetting(editor, channel.can_send_message_group, directory.groups)) {
      throw badRequest('You do not have permission to post in this channel.');
    }
    const limit = realm.move_messages_between_streams_limit_seconds;
    if (!isModerator(editor) && limit !== null && scope.now - row.timestamp > limit + LIMIT_BUFFER_SECONDS) {
      throw badRequest("The time limit for editing this message's channel has passed");
    }
  }
  const resolving = topic !== undefined && isResolveToggle(row.topic, topic);
  if (origChannel && request.propagateMode === 'change_all' && !isModerator(editor) && !resolving && (topic !== undefined || channel)) {
    await checkTopicMoveTimeLimit(db, directory, editor, row, origChannel, topic !== undefined, channel !== undefined, scope.now);
  }

  const from = origChannel ? { channel: origChannel, topic: row.topic, topicKey: row.topic_key! } : undefined;
  const outcome = await applyMessageEdit(scope, directory, {
    message: row,
    editor,
    timestamp: scope.now,
    content,
    topic,
    channel,
    propagateMode: request.propagateMode,
  });
  if (from && outcome.movedIds.length > 0) {
    const to = { channel: channel ?? from.channel, topic: topic ?? from.topic };
    const moved = new Set(outcome.movedIds);
    const alreadyThere = await topicMessages(db, editor, to.channel, to.topic.toLowerCase());
    await postMoveNotices(scope, {
      targetMessageId: row.id,
      from,
      to,
      movedIds: outcome.movedIds,
      propagateMode: request.propagateMode,
      resolveToggleOnly: topic !== undefined && isResolveToggle(from.topic, topic),
      notifyOld: request.notifyOldThread ?? false,
      notifyNew: request.notifyNewThread ?? true,
      visibleLeftBehind: (await topicMessages(db, editor, from.channel, from.topicKey)).length,
      visibleAlreadyThere: alreadyThere.filter((m) => !moved.has(m.id)).length,
    });
    if (topic !== undefined && isResolveToggle(from.topic, topic)) {
      await postResolveNotice(scope, { channel: from.channel, topic, resolved: topic.startsWith(RESOLVED_TOPIC_PREFIX), movedIds: outcome.movedIds });
    }
  }
  return outcome;
}

/**
 * Applies an edit: new content (re-rendered, mention flags recomputed), a new topic and/or
 * channel for the message and, per `propagateMode`, its topic neighbours; edit history; the
 * moved messages' UserMessage rows; and the update_message (and, for users losing access,
 * delete_message) events.
 */
export async function applyMessageEdit(scope: ActionScope, directory: RealmDirectory, edit: MessageEdit): Promise<EditOutcome> {
  const { db } = scope;
  const { message, editor, timestamp, content, topic, channel, propagateMode } = edit;
  const origChannel = message.type === 'stream' ? directory.channels.get(message.stream_id!) : undefined;
  const moved = topic !== undefined || channel !== undefined;
  const changed = moved && propagateMode !== 'change_one' ? await topicNeighbours(db, directory, editor, message, propagateMode) : [message];

  const targetEntry: EditHistoryEntry = { user_id: editor.id, timestamp };
  const moveEntry: EditHistoryEntry = { user_id: editor.id, timestamp };
  if (channel) Object.assign(moveEntry, { prev_stream: message.stream_id, stream: channel.id });
  if (topic !== undefined) Object.assign(moveEntry, { prev_topic: message.topic, topic });
  const event: EngineEvent = {
    type: 'update_message',
    user_id: editor.id,
    edit_timestamp: timestamp,
    message_id: message.id,
    message_ids: changed.map((m) => m.id).sort((a, b) => a - b),
    rendering_only: false,
  };

  const targetRows = await db.user_messages.where('message_id').equals(message.id).toArray();
  let flagRows = targetRows;
  let detachedUploads: AttachmentWire[] = [];
  if (content !== undefined) {
    const rendered = renderMessage(content, directory.markdownRealm(), messageRenderOptions(directory.users.get(message.sender_id)));
    const claims = await updateAttachmentClaims(scope, directory, message, rendered.attachmentPathIds);
    detachedUploads = claims.detached;
    Object.assign(targetEntry, { prev_content: message.content, prev_rendered_content: message.rendered_content });
    Object.assign(event, {
      orig_content: message.content,
      orig_rendered_content: message.rendered_content,
      content,
      rendered_content: rendered.html,
      is_me_message: rendered.isMeMessage,
    });
    Object.assign(message, {
      content,
      rendered_content: rendered.html,
      is_me_message: rendered.isMeMessage,
      has_link: rendered.hasLink,
      has_image: rendered.hasImage,
      has_attachment: claims.hasAttachment,
      last_edit_timestamp: timestamp,
    });
    const alerted = await alertedRecipients(db, directory, content, targetRows.map((um) => um.user_id), message.sender_id);
    flagRows = await recomputeContentFlags(db, directory, message, targetRows, rendered, alerted);
  }
  Object.assign(targetEntry, moveEntry);

  if (origChannel) {
    Object.assign(event, { stream_name: origChannel.name, stream_id: origChannel.id });
    if (moved) Object.assign(event, { propagate_mode: propagateMode, orig_subject: message.topic });
    if (channel) event.new_stream_id = channel.id;
    if (topic !== undefined) Object.assign(event, { subject: topic, topic_links: topicLinks(topic, directory.linkifiers) });
  }

  const origTopic = message.topic;
  const countsAsMove = channel !== undefined || (topic !== undefined && !isResolveToggle(message.topic, topic));
  for (const row of changed) {
    row.edit_history = [row.id === message.id ? targetEntry : moveEntry, ...(row.edit_history ?? [])];
    if (countsAsMove) row.last_moved_timestamp = timestamp;
    if (topic !== undefined) {
      row.topic = topic;
      row.topic_key = topic.toLowerCase();
    }
    if (channel) {
      row.stream_id = channel.id;
      row.recipient_id = channel.recipient_id;
    }
    row.words = searchWords(row.content, row.topic);
  }
  await db.messages.bulkPut(changed);
  const held = moved ? await relocateUserMessages(db, changed) : [];

  let losing = { rows: new Set<number>(), access: new Set<number>() };
  if (origChannel && channel) {
    losing = await moveUserMessages(db, directory, held, changed, origChannel, channel);
    if (losing.access.size > 0) {
      scope.notify({
        event: deleteMessageEvent({ ...message, stream_id: origChannel.id, topic: origTopic }, event.message_ids as number[]),
        users: [...losing.access],
        emptyTopicDisplayName: directory.realm.empty_topic_display_name,
      });
    }
  }

  const perUser = new Map<number, Record<string, unknown>>();
  for (const um of flagRows) if (!losing.rows.has(um.user_id)) perUser.set(um.user_id, { flags: flagList(um.flags) });
  if (origChannel?.history_public_to_subscribers) {
    for (const id of await historyReaders(db, directory, origChannel, channel ?? origChannel, losing.access)) {
      if (!perUser.has(id)) perUser.set(id, { flags: ['read'] });
    }
  }
  scope.notify({ event, users: [...perUser.keys()], perUser, emptyTopicDisplayName: directory.realm.empty_topic_display_name });
  return { detachedUploads, movedIds: moved ? changed.map((m) => m.id) : [] };
}

function validatePayload(
  row: MessageRow,
  request: EditRequest,
  topic: string | undefined,
  streamId: number | undefined,
  directory: RealmDirectory,
): void {
  if (topic === undefined && request.content === undefined && streamId === undefined) throw badRequest('Nothing to change');
  if (row.type === 'private') {
    if (streamId !== undefined) throw badRequest('Direct messages cannot be moved to channels.');
    if (topic !== undefined) throw badRequest('Direct messages cannot have topics.');
  }
  if (request.propagateMode !== 'change_one' && topic === undefined && streamId === undefined) {
    throw badRequest('Invalid propagate_mode without topic edit');
  }
  const emptyName = directory.realm.empty_topic_display_name;
  if (topic === RESOLVED_TOPIC_PREFIX.trim() || topic === `${RESOLVED_TOPIC_PREFIX}${emptyName}`) {
    throw badRequest('General chat cannot be marked as resolved');
  }
  if (streamId !== undefined && request.content !== undefined) {
    throw badRequest('Cannot change message content while changing channel');
  }
}

/** Upstream's validate_user_can_edit_message; typing in an edit allows no buffer past the limit. */
export function checkCanEditContent(editor: UserRow, row: MessageRow, directory: RealmDirectory, now: number, buffer = LIMIT_BUFFER_SECONDS): void {
  const { realm } = directory;
  if (!realm.allow_message_editing) throw badRequest('Your organization has turned off message editing');
  if (row.sender_id !== editor.id) throw badRequest("You don't have permission to edit this message");
  const limit = realm.message_content_edit_limit_seconds;
  if (limit !== null && now - row.timestamp > limit + buffer) {
    throw badRequest('The time limit for editing this message has passed');
  }
}

async function accessTargetChannel(db: RealmDatabase, directory: RealmDirectory, editor: UserRow, streamId: number): Promise<ChannelRow> {
  const channel = directory.channels.get(streamId);
  const subscribed = channel ? (await db.subscriptions.get([editor.id, channel.id]))?.active === 1 : false;
  if (!channel || channel.is_archived || !canReadChannel(editor, channel, subscribed)) throw streamDoesNotExistById(streamId);
  return channel;
}

/** The target channel's topic policy, as for sending (upstream refuses the same topics on moves). */
function checkTopicPolicy(channel: ChannelRow, topic: string, directory: RealmDirectory): void {
  const policy = channel.topics_policy === 'inherit' ? directory.realm.topics_policy : channel.topics_policy;
  const name = directory.realm.empty_topic_display_name;
  if (policy === 'empty_topic_only' && topic !== '') throw badRequest(`Only the "${name}" topic is allowed in this channel.`);
  if (policy === 'disable_empty_topic' && topic === '') {
    throw badRequest(`Sending messages to "${name}" is not allowed in this channel.`);
  }
}

const isModerator = (user: UserRow): boolean => user.role <= ROLE_MODERATOR;

/** Resolving and unresolving topics: the realm's resolve group (upstream's channels have one too, not kept here). */
function canResolveTopics(user: UserRow, directory: RealmDirectory): boolean {
  return isInGroupSetting(user, realmPermissionGroup(directory.realm, 'can_resolve_topics_group'), directory.groups);
}

/** Renaming topics: the realm's between-topics group, the channel's within-channel or administrators group. */
function canMoveWithinChannel(user: UserRow, channel: ChannelRow, directory: RealmDirectory): boolean {
  const realmGroup = realmPermissionGroup(directory.realm, 'can_move_messages_between_topics_group');
  return (
    user.role <= ROLE_ADMIN ||
    isInGroupSetting(user, realmGroup, directory.groups) ||
    isInGroupSetting(user, channel.can_move_messages_within_channel_group, directory.groups) ||
    isInGroupSetting(user, channel.can_administer_channel_group, directory.groups)
  );
}

/** Moving to another channel: the realm's between-channels group, the channel's out-of-channel or administrators group. */
function canMoveOutOfChannel(user: UserRow, channel: ChannelRow, directory: RealmDirectory): boolean {
  const realmGroup = realmPermissionGroup(directory.realm, 'can_move_messages_between_channels_group');
  return (
    user.role <= ROLE_ADMIN ||
    isInGroupSetting(user, realmGroup, directory.groups) ||
    isInGroupSetting(user, channel.can_move_messages_out_of_channel_group, directory.groups) ||
    isInGroupSetting(user, channel.can_administer_channel_group, directory.groups)
  );
}

/**
 * Adding or removing the "✔ " prefix and nothing else: resolving, not really moving. As upstream,
 * a name the prefix pushed past the length limit (cut, with "...") still counts as resolved.
 */
function isResolveToggle(from: string, to: string): boolean {
  const resolving = !from.startsWith(RESOLVED_TOPIC_PREFIX) && to === truncateChars(`${RESOLVED_TOPIC_PREFIX}${from}`, MAX_TOPIC_LENGTH, TOPIC_TRUNCATED_SUFFIX);
  return resolving || from === `${RESOLVED_TOPIC_PREFIX}${to}`;
}

/**
 * A change_all move by a non-moderator must reach every message of the topic within the move
 * time limit; otherwise MOVE_MESSAGES_TIME_LIMIT_EXCEEDED says how much of it they may move.
 */
async function checkTopicMoveTimeLimit(
  db: RealmDatabase,
  directory: RealmDirectory,
  editor: UserRow,
  row: MessageRow,
  channel: ChannelRow,
  topicEdited: boolean,
  channelEdited: boolean,
  now: number,
): Promise<void> {
  const { realm } = directory;
  const limits: number[] = [];
  if (topicEdited && realm.move_messages_within_stream_limit_seconds !== null) limits.push(realm.move_messages_within_stream_limit_seconds);
  if (channelEdited && realm.move_messages_between_streams_limit_seconds !== null) limits.push(realm.move_messages_between_streams_limit_seconds);
  if (limits.length === 0) return;
  const deadline = Math.min(...limits) + LIMIT_BUFFER_SECONDS;
  const inTopic = await topicMessages(db, editor, channel, row.topic_key!);
  const allowed = inTopic.filter((m) => now - m.timestamp < deadline);
  if (allowed.length === inTopic.length) return;
  throw new ApiError(`You only have permission to move the ${allowed.length}/${inTopic.length} most recent messages in this topic.`, {
    code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
    extra: {
      first_message_id_allowed_to_move: allowed[0]?.id ?? null,
      total_messages_in_topic: inTopic.length,
      total_messages_allowed_to_move: allowed.length,
    },
  });
}

/** The topic's messages the editor can see, in id order (walks the channel+topic index). */
export async function topicMessages(db: RealmDatabase, editor: UserRow, channel: ChannelRow, topicKey: string): Promise<MessageRow[]> {
  const all = await db.messages
    .where('[stream_id+topic_key+id]')
    .between([channel.id, topicKey, 0], [channel.id, topicKey, Infinity])
    .toArray();
  const subscribed = (await db.subscriptions.get([editor.id, channel.id]))?.active === 1;
  if (canReadChannelHistory(editor, channel, subscribed)) return all;
  // Without access to the channel's history, only the messages the editor received move.
  const received = await db.user_messages.bulkGet(all.map((m): [number, number] => [editor.id, m.id]));
  return all.filter((_, index) => received[index] !== undefined);
}

/** The messages a change_later / change_all move takes along with the edited one. */
async function topicNeighbours(
  db: RealmDatabase,
  directory: RealmDirectory,
  editor: UserRow,
  message: MessageRow,
  mode: PropagateMode,
): Promise<MessageRow[]> {
  const channel = directory.channels.get(message.stream_id!)!;
  const all = await topicMessages(db, editor, channel, message.topic_key!);
  const others = all.filter((m) => m.id !== message.id && (mode === 'change_all' || m.id > message.id));
  return [message, ...others];
}

/**
 * New mention and alert word flags for everyone holding the edited message, as upstream
 * re-derives them from the new rendering. Returns the rows as they are now.
 */
async function recomputeContentFlags(
  db: RealmDatabase,
  directory: RealmDirectory,
  message: MessageRow,
  rows: UserMessageRow[],
  rendered: ReturnType<typeof renderMessage>,
  alerted: ReadonlySet<number>,
): Promise<UserMessageRow[]> {
  const isDirect = message.type === 'private';
  const groupMentioned = new Set<number>();
  for (const groupId of rendered.mentionedGroupIds) {
    for (const id of groupMemberIds(groupId, directory.users.values(), directory.groups)) groupMentioned.add(id);
  }
  const participants = rendered.topicWildcard && !isDirect ? await topicParticipantIds(db, message) : new Set<number>();
  const updated = rows.map((um) => {
    let bits = um.flags & ~MENTION_BITS & ~FLAG_BITS.has_alert_word;
    if (rendered.mentionedUserIds.includes(um.user_id)) bits |= FLAG_BITS.mentioned;
    if (alerted.has(um.user_id)) bits |= FLAG_BITS.has_alert_word;
    if (groupMentioned.has(um.user_id)) bits |= FLAG_BITS.group_mentioned;
    if (rendered.streamWildcard) bits |= FLAG_BITS.stream_wildcard_mentioned;
    if (rendered.topicWildcard && (isDirect || participants.has(um.user_id))) bits |= FLAG_BITS.topic_wildcard_mentioned;
    return withIndexColumns({ ...um, flags: bits });
  });
  // Only the rows whose flags changed are written: an edit without mentions writes none.
  await db.user_messages.bulkPut(updated.filter((um, index) => um.flags !== rows[index].flags));
  return updated;
}

async function topicParticipantIds(db: RealmDatabase, message: MessageRow): Promise<Set<number>> {
  const ids = new Set<number>([message.sender_id]);
  await db.messages
    .where('[stream_id+topic_key+id]')
    .between([message.stream_id, message.topic_key, 0], [message.stream_id, message.topic_key, Infinity])
    .each((m) => ids.add(m.sender_id));
  return ids;
}

/**
 * Everyone's rows of moved messages take the messages' new channel and topic, so the viewer's
 * rows of a topic stay one range of `[user_id+stream_id+thread_key+message_id]`. Returns them.
 */
async function relocateUserMessages(db: RealmDatabase, moved: readonly MessageRow[]): Promise<UserMessageRow[]> {
  const byId = new Map(moved.map((m) => [m.id, m]));
  const held = await db.user_messages.where('message_id').anyOf([...byId.keys()]).toArray();
  const relocated = held.map((um) => ({ ...um, ...placeColumns(byId.get(um.message_id)!) }));
  await db.user_messages.bulkPut(relocated);
  return relocated;
}

/**
 * UserMessage rows after a channel move, as upstream: the old channel's subscribers (past and
 * present) who are not subscribed to the new one lose their rows, and so does anyone holding a
 * row who cannot read the new channel; of those, the ones who cannot read the new channel at
 * all lose access. Without shared history, the new channel's subscribers gain (read) rows.
 */
async function moveUserMessages(
  db: RealmDatabase,
  directory: RealmDirectory,
  held: readonly UserMessageRow[],
  messages: readonly MessageRow[],
  from: ChannelRow,
  to: ChannelRow,
): Promise<{ rows: Set<number>; access: Set<number> }> {
  const everSubscribed = (
    await db.subscriptions.where('[channel_id+active]').between([from.id, 0], [from.id, 1], true, true).toArray()
  ).map((s) => s.user_id);
  const newSubscribers = new Set(await activeSubscriberIds(db, to.id));

  const losingRows = new Set(everSubscribed.filter((id) => !newSubscribers.has(id)));
  for (const um of held) {
    const user = directory.users.get(um.user_id);
    if (!newSubscribers.has(um.user_id) && user && !canReadChannelHistory(user, to, false)) losingRows.add(um.user_id);
  }
  const losingAccess = new Set(
    [...losingRows].filter((id) => {
      const user = directory.users.get(id);
      return !user || !canReadChannelHistory(user, to, false);
    }),
  );
  await db.user_messages.bulkDelete(
    held.filter((um) => losingRows.has(um.user_id)).map((um): [number, number] => [um.user_id, um.message_id]),
  );
  if (!to.history_public_to_subscribers) {
    const holders = new Set(held.map((um) => `${um.user_id}:${um.message_id}`));
    const gained: UserMessageRow[] = [];
    for (const userId of newSubscribers) {
      for (const message of messages) {
        if (!holders.has(`${userId}:${message.id}`)) gained.push(userMessageRow(userId, message, FLAG_BITS.read));
      }
    }
    await db.user_messages.bulkAdd(gained);
  }
  return { rows: losingRows, access: losingAccess };
}

/**
 * Subscribers who see the edit through channel history without holding the message: the
 * target channel's, and on a move also the old channel's — except users losing access, and
 * guests who only now meet the topic in a channel they alone were subscribed to.
 */
async function historyReaders(
  db: RealmDatabase,
  directory: RealmDirectory,
  from: ChannelRow,
  to: ChannelRow,
  losingAccess: ReadonlySet<number>,
): Promise<number[]> {
  const isActive = (id: number) => directory.users.get(id)?.is_active === true;
  const toSubscribers = (await activeSubscriberIds(db, to.id)).filter(isActive);
  if (from.id === to.id) return toSubscribers;
  const fromSubscribers = new Set((await activeSubscriberIds(db, from.id)).filter(isActive));
  const readers = toSubscribers.filter((id) => fromSubscribers.has(id) || directory.users.get(id)?.role !== 600);
  for (const id of fromSubscribers) readers.push(id);
  return [...new Set(readers)].filter((id) => !losingAccess.has(id));
}
