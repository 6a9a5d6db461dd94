import type { RealmDatabase } from '../../engine/storage/database.ts';
import type { RecipientRow, UserRow } from '../../engine/storage/rows.ts';
import { MAX_PULL_CHANGES, type MessageBundle, type PullAnswer } from '../protocol.ts';

/**
 * The changes after `cursor` as the caller sees them, read in one snapshot: each changed
 * message as a bundle to upsert, or its id in `deleted` when it is gone or not the caller's
 * (never received, or access lost); the caller's topic visibility policies, all of them, when
 * one changed. The answer's cursor is the last change included, never
 * beyond it.
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
  for (const change of page) {
    if (change.kind !== 'message' || change.message_id === undefined) continue;
    const bundle = await messageBundle(db, caller, change.message_id);
    if (bundle) answer.messages.push(bundle);
    else answer.deleted.push(change.message_id);
  }
  return answer;
}

async function messageBundle(db: RealmDatabase, caller: UserRow, messageId: number): Promise<MessageBundle | null> {
  const message = await db.messages.get(messageId);
  const userMessage = await db.user_messages.get([caller.id, messageId]);
  if (!message || !userMessage) return null;
  return {
    message,
    user_message: userMessage,
    reactions: await db.reactions.where('message_id').equals(messageId).sortBy('seq'),
    recipient: (await db.recipients.get(message.recipient_id)) as RecipientRow,
  };
}
