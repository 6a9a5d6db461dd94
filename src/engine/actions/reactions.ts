import { checkEmojiRequest, emojiByName } from '../emoji/emoji-request.ts';
import { ApiError, badRequest } from '../errors/api-error.ts';
import { apiEmail } from '../permissions/email-visibility.ts';
import { userMessageRow } from '../storage/flags.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { loadAccessibleMessage } from '../narrow/message-access.ts';
import { nextId } from '../storage/database.ts';
import { FLAG_BITS, type MessageRow, type ReactionRow, type UserRow } from '../storage/rows.ts';
import { messageAudienceIds } from './delete-message.ts';
import type { ActionScope, CallerScope } from '../services/action-scope.ts';

export type ReactionType = ReactionRow['reaction_type'];

export interface ReactionRequest {
  messageId: number;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

export type AddReactionRequest = ReactionRequest & { emojiName: string };

const REACTION_TYPES: ReadonlySet<string> = new Set(['unicode_emoji', 'realm_emoji', 'service_extra_emoji']);

/**
 * Adds the actor's reaction. A reaction with an emoji already on the message counts as a vote
 * for it and takes its name; a new emoji must be valid in the realm. Reacting to channel
 * history the actor never received gives them a (historical, read) UserMessage row.
 */
export async function addReaction(scope: CallerScope, request: AddReactionRequest): Promise<void> {
  const { db, directory, caller: actor } = scope;
  const { messageId } = request;
  const { row, userMessage } = await loadAccessibleMessage(db, directory, actor, messageId);
  let emojiName = request.emojiName;
  let emojiCode = request.emojiCode;
  let reactionType = request.reactionType;
  if (emojiCode === undefined || reactionType === undefined) {
    const known = emojiByName(directory.emoji, emojiName);
    emojiCode ??= known.code;
    reactionType ??= known.type;
  }
  if (!REACTION_TYPES.has(reactionType)) throw badRequest('Invalid emoji type.');
  const type = reactionType as ReactionType;
  const key = reactionKey(row.id, actor.id, type, emojiCode);
  // The message's reactions answer both questions in one read: the actor's own, and the emoji's.
  const reactions = await db.reactions.where('message_id').equals(row.id).toArray();
  if (reactions.some((r) => r.key === key)) {
    throw new ApiError('Reaction already exists.', { code: 'REACTION_ALREADY_EXISTS' });
  }
  const existing = reactions.find((r) => r.emoji_code === emojiCode && r.reaction_type === type);
  if (existing) emojiName = existing.emoji_name;
  else checkEmojiRequest(directory.emoji, emojiName, emojiCode, type);

  if (!userMessage) {
    await db.user_messages.add(userMessageRow(actor.id, row, FLAG_BITS.read | FLAG_BITS.historical));
  }
  await db.reactions.add({
    key,
    message_id: row.id,
    user_id: actor.id,
    emoji_name: emojiName,
    emoji_code: emojiCode,
    reaction_type: type,
    seq: await nextId(db, 'reaction'),
  });
  await notifyReaction(scope, directory, 'add', row, actor, { emoji_name: emojiName, emoji_code: emojiCode, reaction_type: type });
}

/** Removes the actor's reaction, named by emoji code or (for simple clients) by emoji name. */
export async function removeReaction(scope: CallerScope, request: ReactionRequest): Promise<void> {
  const { db, directory, caller: actor } = scope;
  const { messageId } = request;
  const { row } = await loadAccessibleMessage(db, directory, actor, messageId);
  const reactionType = request.reactionType ?? 'unicode_emoji';
  let emojiCode = request.emojiCode;
  if (emojiCode === undefined) {
    if (request.emojiName === undefined) {
      throw badRequest('At least one of the following arguments must be present: emoji_name, emoji_code');
    }
    emojiCode = emojiByName(directory.emoji, request.emojiName).code;
  }
  const key = reactionKey(row.id, actor.id, reactionType, emojiCode);
  const reaction = await db.reactions.get(key);
  if (!reaction) throw new ApiError("Reaction doesn't exist.", { code: 'REACTION_DOES_NOT_EXIST' });
  await db.reactions.delete(key);
  await notifyReaction(scope, directory, 'remove', row, actor, {
    emoji_name: reaction.emoji_name,
    emoji_code: reaction.emoji_code,
    reaction_type: reaction.reaction_type,
  });
}

const reactionKey = (messageId: number, userId: number, type: string, code: string): string =>
  `${messageId}:${userId}:${type}:${code}`;

async function notifyReaction(
  scope: ActionScope,
  directory: RealmDirectory,
  op: 'add' | 'remove',
  message: MessageRow,
  actor: UserRow,
  emoji: { emoji_name: string; emoji_code: string; reaction_type: ReactionType },
): Promise<void> {
  const audience = await messageAudienceIds(scope.db, directory, message);
  // The deprecated `user` object carries the email each viewer may see.
  const perUser = new Map(
    audience.map((id) => [
      id,
      { user: { user_id: actor.id, email: apiEmail(directory.realm, directory.users.get(id) ?? null, actor), full_name: actor.full_name } },
    ]),
  );
  scope.notify({
    event: { type: 'reaction', op, user_id: actor.id, message_id: message.id, ...emoji },
    users: audience,
    perUser,
  });
}
