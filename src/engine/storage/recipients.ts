import { nextId, type RealmDatabase } from './database.ts';

/** A DM conversation's key: its participants' ids, sorted, joined by commas (self included). */
export const dmKey = (userIds: Iterable<number>): string =>
  [...new Set(userIds)].sort((a, b) => a - b).join(',');

export const dmParticipants = (key: string): number[] => key.split(',').map(Number);

/** The recipient id for `key` (`user:ID`, `channel:ID`, `dm:1,2,3`), created on first use. */
export async function recipientFor(db: RealmDatabase, key: string): Promise<number> {
  const existing = await db.recipients.where('key').equals(key).first();
  if (existing) return existing.id;
  const id = await nextId(db, 'recipient');
  await db.recipients.add({ id, key });
  return id;
}
