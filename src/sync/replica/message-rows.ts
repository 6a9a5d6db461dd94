import type { RealmDatabase } from '../../engine/storage/database.ts';
import { rederivedUserMessage } from '../../engine/storage/flags.ts';
import type { MessageBundle } from '../protocol.ts';
import type { LocalMessage } from './local-notices.ts';

/** The messages of `ids` as the replica holds them for its user, by id (absent: not held). Three range reads in all. */
export async function localMessages(db: RealmDatabase, me: number, ids: readonly number[]): Promise<Map<number, LocalMessage>> {
  const [messages, userMessages, reactions] = await Promise.all([
    db.messages.bulkGet([...ids]),
    db.user_messages.bulkGet(ids.map((id) => [me, id] as [number, number])),
    db.reactions.where('message_id').anyOf([...ids]).toArray(),
  ]);
  const held = new Map<number, LocalMessage>();
  for (const [index, message] of messages.entries()) {
    if (message) held.set(message.id, { message, userMessage: userMessages[index], reactions: [] });
  }
  for (const reaction of reactions) held.get(reaction.message_id)?.reactions.push(reaction);
  return held;
}

/**
 * Upserts the hub's rows of a page of messages (each one's reactions replaced whole), a bulk
 * write per table. The flags rows' place and index columns are derived here from the message,
 * as every writer derives them, rather than trusted from the hub (a hub of another version may
 * shape them otherwise). A bundle without flags (channel history) writes none.
 */
export async function putBundles(db: RealmDatabase, bundles: readonly MessageBundle[]): Promise<void> {
  if (bundles.length === 0) return;
  const ids = bundles.map((bundle) => bundle.message.id);
  const recipients = [...new Map(bundles.map(({ recipient }) => [recipient.id, recipient])).values()];
  // A recipient the replica made for a new group conversation gives way to the hub's.
  const clashes = await db.recipients.where('key').anyOf(recipients.map((recipient) => recipient.key)).toArray();
  const hubIds = new Set(recipients.map((recipient) => recipient.id));
  const replaced = clashes.filter((clash) => !hubIds.has(clash.id)).map((clash) => clash.id);
  // Empty writes are skipped: each costs a round of the store even with nothing in it.
  if (replaced.length > 0) await db.recipients.bulkDelete(replaced);
  await Promise.all([
    db.recipients.bulkPut(recipients),
    db.messages.bulkPut(bundles.map((bundle) => bundle.message)),
    db.user_messages.bulkPut(bundles.flatMap(({ user_message: flags, message }) => (flags ? [rederivedUserMessage({ ...flags }, message)] : []))),
    db.reactions.where('message_id').anyOf(ids).delete(),
  ]);
  const reactions = bundles.flatMap((bundle) => bundle.reactions);
  if (reactions.length > 0) await db.reactions.bulkPut(reactions);
}

/** Removes a message and everything hanging from it. */
export async function deleteMessageRows(db: RealmDatabase, id: number): Promise<void> {
  await db.messages.delete(id);
  await db.user_messages.where('message_id').equals(id).delete();
  await db.reactions.where('message_id').equals(id).delete();
}
