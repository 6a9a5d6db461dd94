import type { RealmDatabase } from '../../engine/storage/database.ts';
import { rederivedUserMessage } from '../../engine/storage/flags.ts';
import type { MessageBundle } from '../protocol.ts';
import type { LocalMessage } from './local-notices.ts';

/** A message as the replica holds it for its user, or undefined. */
export async function localMessage(db: RealmDatabase, me: number, id: number): Promise<LocalMessage | undefined> {
  const message = await db.messages.get(id);
  if (!message) return undefined;
  return {
    message,
    userMessage: await db.user_messages.get([me, id]),
    reactions: await db.reactions.where('message_id').equals(id).toArray(),
  };
}

/**
 * Upserts the hub's rows of one message (its reactions replaced whole). The flags row's place
 * and index columns are derived here from the message, as every writer derives them, rather
 * than trusted from the hub (a hub of another version may shape them otherwise).
 */
export async function putBundle(db: RealmDatabase, bundle: MessageBundle): Promise<void> {
  const { message, recipient } = bundle;
  // A recipient the replica made for a new group conversation gives way to the hub's.
  const clash = await db.recipients.where('key').equals(recipient.key).first();
  if (clash && clash.id !== recipient.id) await db.recipients.delete(clash.id);
  await db.recipients.put(recipient);
  await db.messages.put(message);
  await db.user_messages.put(rederivedUserMessage({ ...bundle.user_message }, message));
  await db.reactions.where('message_id').equals(message.id).delete();
  await db.reactions.bulkPut(bundle.reactions);
}

/** Removes a message and everything hanging from it. */
export async function deleteMessageRows(db: RealmDatabase, id: number): Promise<void> {
  await db.messages.delete(id);
  await db.user_messages.where('message_id').equals(id).delete();
  await db.reactions.where('message_id').equals(id).delete();
}
