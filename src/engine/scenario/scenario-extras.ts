import { applyMessageEdit } from '../actions/edit-message.ts';
import type { ActionScope } from '../services/action-scope.ts';
import { unicodeEmojiByName } from '../emoji/emoji-catalog.ts';
import { badRequest } from '../errors/api-error.ts';
import { withIndexColumns } from '../storage/flags.ts';
import { normalizeContent, normalizeTopic } from '../validation/message-limits.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { nextId, type RealmDatabase } from '../storage/database.ts';
import { FLAG_BITS, type UserRow } from '../storage/rows.ts';
import type { ScenarioMessage } from './scenario-schema.ts';

/** A scenario message's edits, reactions and stars, applied right after it is sent. */
export async function applyScenarioExtras(
  db: RealmDatabase,
  directory: RealmDirectory,
  scope: ActionScope,
  messageId: number,
  message: ScenarioMessage,
  users: ReadonlyMap<string, UserRow>,
): Promise<void> {
  // Edits are the sender's, at their own timestamps, so the message carries real edit history.
  for (const edit of message.edits) {
    const row = (await db.messages.get(messageId))!;
    if (edit.topic !== undefined && row.type === 'private') throw badRequest('Direct messages cannot have topics.');
    const topic = edit.topic === undefined ? undefined : normalizeTopic(edit.topic, directory.realm);
    const content = edit.content === undefined ? undefined : normalizeContent(edit.content);
    const changed = { content: content === row.content ? undefined : content, topic: topic === row.topic ? undefined : topic };
    if (changed.content === undefined && changed.topic === undefined) throw badRequest('Nothing to change');
    await applyMessageEdit(scope, directory, {
      message: row,
      editor: directory.user(row.sender_id),
      timestamp: edit.timestamp,
      ...changed,
      propagateMode: 'change_one',
    });
  }
  for (const reaction of message.reactions) {
    const emoji = unicodeEmojiByName(reaction.emoji);
    if (!emoji) throw badRequest(`Emoji '${reaction.emoji}' does not exist`);
    const userId = users.get(reaction.user)!.id;
    const key = `${messageId}:${userId}:unicode_emoji:${emoji.code}`;
    if (await db.reactions.get(key)) continue;
    await db.reactions.add({
      key,
      message_id: messageId,
      user_id: userId,
      emoji_name: reaction.emoji,
      emoji_code: emoji.code,
      reaction_type: 'unicode_emoji',
      seq: await nextId(db, 'reaction'),
    });
  }
  for (const email of message.starred_by) {
    const userId = users.get(email)!.id;
    const row = await db.user_messages.get([userId, messageId]);
    if (!row) throw badRequest(`${email} did not receive this message, so cannot star it`);
    await db.user_messages.put(withIndexColumns({ ...row, flags: row.flags | FLAG_BITS.starred }));
  }
}
