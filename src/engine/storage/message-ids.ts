import { Dexie } from 'dexie';
import { FIRST_MESSAGE_ID, type RealmDatabase } from './database.ts';
import { MESSAGE_ID_COUNTER } from './message-id-counter.ts';
import type { MessageRow } from './rows.ts';

/**
 * Seeds the engine's held message id (`MessageIdCounter`) from storage: the counter row, and with
 * `withNewest` also one above the newest message (a key read), for when the row may be behind.
 */
async function seedFromStorage(db: RealmDatabase, withNewest: boolean): Promise<void> {
  const { generation } = db.messageIds;
  const [row, newest] = await Promise.all([db.counters.get(MESSAGE_ID_COUNTER), withNewest ? db.messages.orderBy(':id').lastKey() : undefined]);
  db.messageIds.seed(Math.max(row?.next ?? FIRST_MESSAGE_ID, typeof newest === 'number' ? newest + 1 : FIRST_MESSAGE_ID), generation);
}

/** The next message id: from memory, read from storage only while none is held. */
async function takeMessageId(db: RealmDatabase): Promise<number> {
  for (;;) {
    const id = db.messageIds.take();
    if (id !== null) return id;
    await seedFromStorage(db, false);
  }
}

const isConstraintError = (error: unknown): boolean => error instanceof Dexie.ConstraintError;

/**
 * Adds a new message (`row.id` is set to its id) and writes the counter row back in the same
 * transaction: three requests fewer than reading the row, when the id is held. If the `add` is
 * refused because the id is taken (another engine on this database took it), it is taken again
 * after reading the row and the newest message: inside this transaction, IndexedDB has run every
 * earlier writer by then, and no message is above the newest, so the second `add` cannot clash.
 */
export async function addNewMessage(db: RealmDatabase, row: MessageRow): Promise<number> {
  row.id = await takeMessageId(db);
  try {
    await db.messages.add(row);
  } catch (error) {
    if (!isConstraintError(error)) throw error;
    await seedFromStorage(db, true);
    row.id = await takeMessageId(db);
    await db.messages.add(row);
  }
  // The `add` has succeeded, so IndexedDB has run every earlier writer of this database: the held
  // id is above the ids of this engine's, and of the row's writes, so the row written last covers
  // every id this engine's committed sends took. Dropped meanwhile (the row written by others),
  // it is seeded again, after those writes.
  if (!db.messageIds.holds()) await seedFromStorage(db, true);
  db.messageIds.seed(row.id + 1, db.messageIds.generation);
  await db.counters.put(db.messageIds.ownRow());
  return row.id;
}
