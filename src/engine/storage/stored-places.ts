import type { RealmDatabase } from './database.ts';
import { rederivedUserMessage } from './flags.ts';
import type { MessageRow, UserMessageRow } from './rows.ts';

/**
 * A realm stored before user_messages rows carried their message's place (a browser's IndexedDB,
 * a `--data` directory) gets it once, when an engine opens it: without it, pages would find none
 * of the viewer's rows. Such a realm has no row with the place, so its first row tells; rows
 * whose message is gone can never be read and are dropped.
 */
export async function fillStoredPlaces(db: RealmDatabase): Promise<void> {
  const first = await db.user_messages.toCollection().first();
  if (!first || first.thread_key !== undefined) return;
  await db.transaction('rw', [db.user_messages, db.messages], async (tx) => {
    // Tables taken from `tx`: every read and write stays inside this one transaction.
    const userMessages = tx.table<UserMessageRow, [number, number]>('user_messages');
    const rows = await userMessages.toArray();
    const messages = await tx.table<MessageRow, number>('messages').bulkGet([...new Set(rows.map((row) => row.message_id))]);
    const byId = new Map(messages.flatMap((m) => (m ? [[m.id, m] as const] : [])));
    const orphans = rows.filter((row) => !byId.has(row.message_id));
    await userMessages.bulkDelete(orphans.map((row): [number, number] => [row.user_id, row.message_id]));
    await userMessages.bulkPut(rows.filter((row) => byId.has(row.message_id)).map((row) => rederivedUserMessage({ ...row }, byId.get(row.message_id)!)));
  });
}
