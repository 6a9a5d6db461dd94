import { deleteMessageEvent } from '../../engine/actions/delete-message.ts';
import { unreadDetails } from '../../engine/actions/message-flags.ts';
import { submessageEvent } from '../../engine/actions/submessages.ts';
import type { RealmDirectory } from '../../engine/directory/realm-directory.ts';
import type { EngineEvent, Notice } from '../../engine/events/event-types.ts';
import { apiEmail } from '../../engine/permissions/email-visibility.ts';
import type { RealmDatabase } from '../../engine/storage/database.ts';
import { flagList } from '../../engine/storage/flags.ts';
import { FLAG_BITS, type MessageRow, type ReactionRow, type UserMessageRow, type UserRow } from '../../engine/storage/rows.ts';
import type { MessageBundle } from '../protocol.ts';

/**
 * The events a replica's local clients get when rows from the hub replace local ones: derived
 * from the difference, so applying the same rows twice emits nothing. Shapes are the actions'
 * own (docs/SYNC.md, replica rule 4).
 */

/** The flags whose changes a replica reports as `update_message_flags`. */
const REPORTED_FLAGS = ['read', 'starred'] as const;

export interface LocalMessage {
  message: MessageRow;
  userMessage: UserMessageRow | undefined;
  reactions: ReactionRow[];
}

/** The flags of channel history its user did not receive, as pages show them (read, historical). */
const HISTORY_FLAGS = FLAG_BITS.read | FLAG_BITS.historical;

/** A message the replica's user received, new to the replica; `echo` names the local client that sent it as a provisional message. */
export function arrivedNotice(
  directory: RealmDirectory,
  me: number,
  bundle: MessageBundle & { user_message: UserMessageRow },
  echo?: { queueId?: string; localId?: string },
): Notice {
  return {
    event: { type: 'message' },
    users: [me],
    perUser: new Map([[me, { flags: flagList(bundle.user_message.flags) }]]),
    message: { row: bundle.message, directory, senderQueueId: echo?.queueId, localId: echo?.localId },
  };
}

export function removedNotice(directory: RealmDirectory, me: number, row: MessageRow): Notice {
  return { event: deleteMessageEvent(row, [row.id]), users: [me], emptyTopicDisplayName: directory.realm.empty_topic_display_name };
}

/** What changed in a message the replica already held besides its content and place (`update-notices.ts`): reactions, submessages, flags (channel history has the history flags). */
export async function changedNotices(
  db: RealmDatabase,
  directory: RealmDirectory,
  me: UserRow,
  old: LocalMessage,
  bundle: MessageBundle,
): Promise<Notice[]> {
  const notices: Notice[] = [];
  const base = { users: [me.id], emptyTopicDisplayName: directory.realm.empty_topic_display_name };
  const before = old.userMessage?.flags ?? HISTORY_FLAGS;
  const after = bundle.user_message?.flags ?? HISTORY_FLAGS;
  const oldKeys = new Set(old.reactions.map((r) => r.key));
  const newKeys = new Set(bundle.reactions.map((r) => r.key));
  for (const reaction of old.reactions) if (!newKeys.has(reaction.key)) notices.push({ ...base, event: reactionEvent(directory, me, 'remove', reaction) });
  for (const reaction of bundle.reactions) if (!oldKeys.has(reaction.key)) notices.push({ ...base, event: reactionEvent(directory, me, 'add', reaction) });
  // Submessages (a widget's votes, options, tasks) are only ever added.
  const heldSubmessages = new Set((old.message.submessages ?? []).map((submessage) => submessage.id));
  for (const submessage of bundle.message.submessages ?? []) {
    if (!heldSubmessages.has(submessage.id)) notices.push({ ...base, event: submessageEvent(bundle.message, submessage) });
  }

  for (const flag of REPORTED_FLAGS) {
    const bit = FLAG_BITS[flag];
    if ((before & bit) === (after & bit)) continue;
    const op = after & bit ? 'add' : 'remove';
    const event: EngineEvent = { type: 'update_message_flags', op, operation: op, flag, messages: [bundle.message.id], all: false };
    if (flag === 'read' && op === 'remove' && bundle.user_message) event.message_details = await unreadDetails(db, me, [bundle.user_message]);
    notices.push({ ...base, event });
  }
  return notices;
}

function reactionEvent(directory: RealmDirectory, me: UserRow, op: 'add' | 'remove', reaction: ReactionRow): EngineEvent {
  const actor = directory.users.get(reaction.user_id);
  return {
    type: 'reaction',
    op,
    user_id: reaction.user_id,
    message_id: reaction.message_id,
    emoji_name: reaction.emoji_name,
    emoji_code: reaction.emoji_code,
    reaction_type: reaction.reaction_type,
    // The deprecated `user` object, as the reaction action sends it.
    user: { user_id: reaction.user_id, email: actor ? apiEmail(directory.realm, me, actor) : '', full_name: actor?.full_name ?? '' },
  };
}
