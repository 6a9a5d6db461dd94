import { signal } from '@preact/signals';
import type { Message } from '../../api/wire-types.ts';
import { dmParticipants, type Narrow, narrowTerms, showsTopic } from '../../narrow/narrow.ts';
import { narrowHash } from '../../narrow/narrow-url.ts';
import { conversationOf, type UnreadEntry } from '../../state/unread-index.ts';
import type { ChatSession } from '../../state/session.ts';
import { slugNames } from '../slug-names.ts';
import { attempt, notify } from '../notices.ts';
import type { ComposerState } from '../../state/composer-state.ts';
import { TOPIC_FOLLOWED, TOPIC_MUTED, TOPIC_UNMUTED } from '../../state/realm-state.ts';
import { messageListControl } from './list-control.ts';
import { navigate, route } from '../navigation.ts';

/** Messages of muted senders the reader chose to see (upstream's Reveal), until hidden again. */
export const revealedMuted = signal<ReadonlySet<number>>(new Set());

export function setRevealed(id: number, revealed: boolean): void {
  const next = new Set(revealedMuted.value);
  if (revealed) next.add(id);
  else next.delete(id);
  revealedMuted.value = next;
}

/** The message whose content is being edited in place, if any. */
export const editing = signal<number | null>(null);

/**
 * The open message dialog: edit history, read receipts, a reminder, move (a message, or its whole
 * topic: `whole`), delete confirmation (a message, or a topic), the emoji picker for a reaction,
 * or a sender's card.
 */
export type MessageDialog =
  | { kind: 'history'; message: Message }
  | { kind: 'source'; message: Message }
  | { kind: 'receipts'; message: Message }
  | { kind: 'remind'; message: Message }
  | { kind: 'move'; message: Message; whole?: 'rename' | 'move' }
  | { kind: 'delete'; message: Message }
  | { kind: 'deleteTopic'; channelId: number; topic: string }
  | { kind: 'react'; message: Message }
  | { kind: 'user'; userId: number };

export const messageDialog = signal<MessageDialog | null>(null);

/** The message's Markdown source, as its author wrote it. */
export async function rawContent(session: ChatSession, id: number): Promise<string> {
  const answer = await session.api.get<{ message: { content: string } }>(`/messages/${id}`, { apply_markdown: false });
  return answer.message.content;
}

export function toggleStar(session: ChatSession, message: Message): Promise<boolean> {
  const op = message.flags.includes('starred') ? 'remove' : 'add';
  return attempt(op === 'add' ? 'Could not star the message' : 'Could not unstar the message', () =>
    session.api.post('/messages/flags', { messages: [message.id], op, flag: 'starred' }),
  );
}

/** Upstream's Collapse: the message's content out of view (the `collapsed` flag, kept by the server), until expanded again. */
export function toggleCollapsed(session: ChatSession, message: Message): Promise<boolean> {
  const op = message.flags.includes('collapsed') ? 'remove' : 'add';
  return attempt(op === 'add' ? 'Could not collapse the message' : 'Could not expand the message', () =>
    session.api.post('/messages/flags', { messages: [message.id], op, flag: 'collapsed' }),
  );
}

/** The most messages one `flags/narrow` request marks, and how many such requests one click makes. */
const MARK_UNREAD_BATCH = 1000;
const MARK_UNREAD_BATCHES = 20;

/**
 * Upstream's "Mark as unread from here": the message and every later one in the view, a batch
 * at a time. The view stops marking what it shows as read until it is opened again, or the
 * messages would be read again at once.
 */
export async function markUnreadFromHere(session: ChatSession, narrow: Narrow, message: Message): Promise<boolean> {
  const { readingPaused } = session.list(narrow);
  readingPaused.value = true;
  const marked = await attempt('Could not mark as unread', async () => {
    let anchor = message.id;
    for (let batch = 0, first = true; batch < MARK_UNREAD_BATCHES; batch++, first = false) {
      const answer = await session.api.post<{ found_newest: boolean; last_processed_id: number | null }>('/messages/flags/narrow', {
        anchor,
        include_anchor: first,
        num_before: 0,
        num_after: MARK_UNREAD_BATCH,
        narrow: narrowTerms(narrow),
        op: 'remove',
        flag: 'read',
      });
      if (answer.found_newest || answer.last_processed_id === null) return;
      anchor = answer.last_processed_id;
    }
  });
  // Refused: nothing was marked, so the view reads again.
  if (!marked) readingPaused.value = false;
  return marked;
}

/** Adds the reaction, or takes mine back when I already reacted with it. */
export function toggleReaction(session: ChatSession, message: Message, emoji: { name: string; code?: string; type?: string }): Promise<boolean> {
  const mine = message.reactions.find((r) => r.user_id === session.me && (r.emoji_name === emoji.name || (emoji.code !== undefined && r.emoji_code === emoji.code)));
  const params = mine
    ? { emoji_name: mine.emoji_name, emoji_code: mine.emoji_code, reaction_type: mine.reaction_type }
    : { emoji_name: emoji.name, ...(emoji.code ? { emoji_code: emoji.code } : {}), ...(emoji.type ? { reaction_type: emoji.type } : {}) };
  return attempt('Could not react', () =>
    mine ? session.api.delete(`/messages/${message.id}/reactions`, params) : session.api.post(`/messages/${message.id}/reactions`, params),
  );
}

/** The message's permanent link: its conversation's narrow, near it. */
export function messageLink(session: ChatSession, message: Message): string {
  return `${location.origin}${location.pathname}${narrowHash(conversationOf(message, session.me), slugNames(session), message.id)}`;
}

/** A conversation's link (a topic's, a DM's), as upstream's Copy link to topic gives it. */
export function narrowLink(session: ChatSession, narrow: Narrow): string {
  return `${location.origin}${location.pathname}${narrowHash(narrow, slugNames(session))}`;
}

export function copyLink(session: ChatSession, message: Message): Promise<void> {
  return copyToClipboard(messageLink(session, message));
}

/** Copies `text` (a link unless `what` says otherwise), saying so. */
export async function copyToClipboard(text: string, what = 'Link'): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify(`${what} copied.`);
  } catch {
    // Without clipboard permission: show it, so it can be copied by hand.
    notify(`${what}: ${text}`);
  }
}

/** Whether Move message is offered: as upstream, to those the realm's settings let move messages; the server decides. */
export function mayMoveMessage(session: ChatSession, message: Message): boolean {
  const realm = session.realm;
  return message.type === 'stream' && (realm.may('can_move_messages_between_topics_group') || realm.may('can_move_messages_between_channels_group'));
}

/** Upstream's `@`: a reply to the message that starts by mentioning its sender. */
export async function replyMentioning(composer: ComposerState, message: Message): Promise<void> {
  await composer.replyTo(message);
  composer.append(`@**${message.sender_full_name}|${message.sender_id}** `);
}

/**
 * Upstream's `←`: my newest message in the view that I may still edit, selected and opened for
 * editing. False when there is none.
 */
export function editLastOwnMessage(session: ChatSession, narrow: Narrow): boolean {
  const mine = session.list(narrow).messages.peek().findLast((message) => canEditContent(session, message));
  if (!mine) return false;
  messageListControl.current.select(mine.id);
  editing.value = mine.id;
  return true;
}

/**
 * Upstream's `Shift+M`: the topic muted, or back to the channel's default; in a muted channel,
 * unmuted, or back to muted with it. Says what it did, as upstream's feedback does.
 */
export async function toggleTopicMute(session: ChatSession, channelId: number, topic: string): Promise<boolean> {
  const realm = session.realm;
  const policy = realm.topicPolicy(channelId, topic);
  const channelMuted = realm.subscriptions.value.get(channelId)?.is_muted ?? false;
  const shownBefore = channelMuted ? policy === TOPIC_UNMUTED || policy === TOPIC_FOLLOWED : policy !== TOPIC_MUTED;
  const next = shownBefore ? (channelMuted ? 0 : TOPIC_MUTED) : channelMuted ? TOPIC_UNMUTED : 0;
  const changed = await setTopicPolicy(session, channelId, topic, next);
  if (changed) notify(shownBefore ? `You muted the topic “${topic}”.` : `You unmuted the topic “${topic}”.`);
  return changed;
}

/** A topic's visibility policy (0: the channel's default), set with `POST /user_topics`. */
export function setTopicPolicy(session: ChatSession, channelId: number, topic: string, policy: number): Promise<boolean> {
  return attempt('Could not change the topic', () => session.api.post('/user_topics', { stream_id: channelId, topic, visibility_policy: policy }));
}

/** Quote and reply, as upstream writes it: a mention of the author, a link to the message, the quoted source. */
export async function quoteReply(session: ChatSession, composer: ComposerState, message: Message): Promise<void> {
  void composer.replyTo(message);
  await attempt('Could not quote the message', async () => composer.insert(await quoted(session, message)));
}

/** Upstream's Forward message (`<`): the message quoted, as Quote and reply writes it, in a new message to be addressed. */
export async function forwardMessage(session: ChatSession, composer: ComposerState, message: Message): Promise<void> {
  await attempt('Could not forward the message', async () => composer.forward(await quoted(session, message)));
}

/** A mention of the author, a link to the message, its source in a quote block (fenced longer than any fence inside). */
async function quoted(session: ChatSession, message: Message): Promise<string> {
  const source = await rawContent(session, message.id);
  const fence = source.includes('```') ? '````' : '```';
  return `@_**${message.sender_full_name}|${message.sender_id}** [said](${messageLink(session, message)}):\n${fence}quote\n${source}\n${fence}\n`;
}

/** Whether I may edit the content: my own message, editing allowed, within the time limit. */
export function canEditContent(session: ChatSession, message: Message): boolean {
  const { allowEditing, editSeconds } = session.realm.limits.value;
  // A widget (poll, to-do list) keeps its state in submessages: the server refuses to edit its text.
  if (message.sender_id !== session.me || !allowEditing || (message.submessages?.length ?? 0) > 0) return false;
  return editSeconds === null || editSeconds === 0 || Date.now() / 1000 - message.timestamp < editSeconds;
}

/** Upstream's prefix of a resolved topic's name. */
export const RESOLVED_TOPIC_PREFIX = '✔ ';

/**
 * Marks a topic resolved, or unresolved, as upstream's web app does: every message of it moved to
 * the name with (or without) "✔ ", the notification bot telling the topic. The compose box and a
 * view of that topic follow it to its new name (`followTopicMove`). Returns the new name, or null when the
 * server refused (its words shown).
 */
export async function toggleTopicResolved(session: ChatSession, composer: ComposerState, channelId: number, topic: string): Promise<string | null> {
  const resolved = topic.startsWith(RESOLVED_TOPIC_PREFIX);
  const renamed = resolved ? topic.slice(RESOLVED_TOPIC_PREFIX.length) : `${RESOLVED_TOPIC_PREFIX}${topic}`;
  const done = await attempt(resolved ? 'Could not mark the topic unresolved' : 'Could not mark the topic resolved', async () => {
    const newest = await newestInTopic(session, channelId, topic);
    if (!newest) throw new Error('The topic has no messages.');
    await session.api.patch(`/messages/${newest.id}`, {
      topic: renamed,
      propagate_mode: 'change_all',
      send_notification_to_old_thread: false,
      send_notification_to_new_thread: true,
    });
  });
  if (!done) return null;
  followTopicMove(session, composer, { channelId, topic }, { channelId, topic: renamed });
  return renamed;
}

/**
 * A whole topic this user moved: the compose box addressed to it and a view showing it follow
 * it to its new place, as upstream's web app's do (the box first, so the view's change finds it
 * already there and keeps its text).
 */
export function followTopicMove(session: ChatSession, composer: ComposerState, from: { channelId: number; topic: string }, to: { channelId: number; topic: string }): void {
  composer.followTopicMove(from, to);
  if (showsTopic(route.value.narrow, from.channelId, from.topic)) navigate({ kind: 'channel', channelId: to.channelId, topic: to.topic }, slugNames(session));
}

/** A channel's topic names as the server has them, newest first (`GET /users/me/{id}/topics`). */
export async function channelTopicNames(session: ChatSession, channelId: number): Promise<string[]> {
  const answer = await session.api.get<{ topics: { name: string }[] }>(`/users/me/${channelId}/topics`);
  return answer.topics.map((topic) => topic.name);
}

/** The topic's newest message, fetched: what a whole topic's move names it by. None in a topic with none. */
export async function newestInTopic(session: ChatSession, channelId: number, topic: string): Promise<Message | undefined> {
  const narrow = [
    { operator: 'channel', operand: channelId },
    { operator: 'topic', operand: topic },
  ];
  const page = await session.api.get<{ messages: Message[] }>('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow });
  return page.messages[0];
}

/** Which unread messages belong to a view the header's Mark as read covers (the feed, a channel, a topic, a DM); null for the others. */
export function unreadInNarrow(session: ChatSession, narrow: Narrow): ((entry: UnreadEntry) => boolean) | null {
  switch (narrow.kind) {
    case 'all':
      return () => true;
    case 'channel': {
      const key = narrow.topic?.toLowerCase();
      return (entry) => entry.channelId === narrow.channelId && (key === undefined || entry.topicKey === key);
    }
    case 'dm': {
      const key = dmParticipants(narrow.userIds, session.me).join(',');
      return (entry) => entry.dmKey === key;
    }
    default:
      return null;
  }
}

/**
 * Marks a whole view read at once, as upstream's "Mark all messages as read" (the feed), "Mark as
 * read" of a channel or a topic, each by its endpoint; a DM's messages by their ids.
 */
export function markNarrowRead(session: ChatSession, narrow: Narrow): Promise<boolean> {
  const what = 'Could not mark the messages as read';
  switch (narrow.kind) {
    case 'all':
      return attempt(what, () => session.api.post('/mark_all_as_read'));
    case 'channel':
      return narrow.topic === undefined
        ? attempt(what, () => session.api.post('/mark_stream_as_read', { stream_id: narrow.channelId }))
        : attempt(what, () => session.api.post('/mark_topic_as_read', { stream_id: narrow.channelId, topic_name: narrow.topic! }));
    case 'dm': {
      const inDm = unreadInNarrow(session, narrow)!;
      const ids = [...session.realm.unread.value.entries].filter(([, entry]) => inDm(entry)).map(([id]) => id);
      return attempt(what, () => session.api.post('/messages/flags', { messages: ids, op: 'add', flag: 'read' }));
    }
    default:
      return Promise.resolve(false);
  }
}

/**
 * Opens a conversation to write in: the compose box addressed to it at once (the view follows the
 * address a task later, on its hashchange) and focused, so what is typed next is the message; a
 * frame later where a closing dialog first hands the focus back (`afterDialog`).
 */
export function writeIn(session: ChatSession, composer: ComposerState, narrow: Narrow, { afterDialog = false } = {}): void {
  navigate(narrow, slugNames(session));
  composer.prefill(narrow);
  if (afterDialog) requestAnimationFrame(() => (composer.focusRequest.value += 1));
  else composer.focusRequest.value += 1;
}
