import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { RecipientRow, UserRow } from '../../engine/storage/rows.ts';
import { MAX_PULL_CHANGES, type MessageBundle, type PullAnswer } from '../protocol.ts';

/** Every table `readChanges` reads: its snapshot opens only these (a transaction over every table costs far more). */
export const PULL_TABLES = ['sync_changes', 'user_topics', 'messages', 'user_messages', 'reactions', 'recipients'] as const;

/**
 * The changes after `cursor` as the caller sees them, read in one snapshot: each changed
 * message as a bundle to upsert, or its id in `deleted` when it is gone or not the caller's
 * (never received, or access lost); the caller's topic visibility policies, all of them, when
 * one changed. The answer's cursor is the last change included, never beyond it.
 */
export async function readChanges(
  db: RealmDatabase,
  caller: UserRow,
  cursor: number,
  limit = MAX_PULL_CHANGES,
): Promise<Omit<PullAnswer, 'hub_id' | 'epoch'>> {
  const changes = await db.sync_changes.where('seq').above(cursor).limit(limit + 1).toArray();
  const more = changes.length > limit;
  const page = changes.slice(0, limit);
  const answer: Omit<PullAnswer, 'hub_id' | 'epoch'> = {
    cursor: page.at(-1)?.seq ?? cursor,
    more,
    messages: [],
    deleted: [],
    realm_changed: page.some((change) => change.kind === 'realm' && change.users?.includes(caller.id)),
  };
  if (page.some((change) => change.kind === 'user_topic' && change.users?.includes(caller.id))) {
    answer.user_topics = await db.user_topics.where('user_id').equals(caller.id).toArray();
  }
  const messageIds = page.filter((change) => change.kind === 'message' && change.message_id !== undefined).map((change) => change.message_id!);
  const bundles = await messageBundles(db, caller, messageIds);
  for (const id of messageIds) {
    const bundle = bundles.get(id);
    if (bundle) answer.messages.push(bundle);
    else answer.deleted.push(id);
  }
  return answer;
}

/** The bundles of the messages the caller holds, read a table at a time (a page is up to 500 messages). */
async function messageBundles(db: RealmDatabase, caller: UserRow, ids: readonly number[]): Promise<Map<number, MessageBundle>> {
  const [messages, userMessages, reactions] = await Promise.all([
    db.messages.bulkGet(ids as number[]),
    db.user_messages.bulkGet(ids.map((id): [number, number] => [caller.id, id])),
    db.reactions.where('message_id').anyOf(ids as number[]).sortBy('seq'),
  ]);
  const recipientIds = [...new Set(messages.filter((m) => m !== undefined).map((m) => m.recipient_id))];
  const recipients = new Map((await db.recipients.bulkGet(recipientIds)).filter((r) => r !== undefined).map((r) => [r.id, r]));
  const bundles = new Map<number, MessageBundle>();
  ids.forEach((id, index) => {
    const message = messages[index];
    const userMessage = userMessages[index];
    if (!message || !userMessage) return;
    bundles.set(id, { message, user_message: userMessage, reactions: [], recipient: recipients.get(message.recipient_id) as RecipientRow });
  });
  for (const reaction of reactions) bundles.get(reaction.message_id)?.reactions.push(reaction);
  return bundles;
}
