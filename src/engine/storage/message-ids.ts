import { Dexie } from 'dexie';
import { FIRST_MESSAGE_ID, type RealmDatabase } from './database.ts';
import { MESSAGE_ID_COUNTER } from './message-id-counter.ts';
import type { MessageRow } from './rows.ts';

/**
 * The next message id as stored, read in the caller's transaction: the counter row, and with
 * `withNewest` one above the newest message too (a key read), for when the row may be behind.
 */
async function storedNext(db: RealmDatabase, withNewest: boolean): Promise<number> {
  const [row, newest] = await Promise.all([db.counters.get(MESSAGE_ID_COUNTER), withNewest ? db.messages.orderBy(':id').lastKey() : undefined]);
  return Math.max(row?.next ?? FIRST_MESSAGE_ID, typeof newest === 'number' ? newest + 1 : FIRST_MESSAGE_ID);
}

/** The next id from storage, held from then on if the counter may hold it. */
async function takeStoredId(db: RealmDatabase, withNewest: boolean): Promise<number> {
  const { generation } = db.messageIds;
  const stored = await storedNext(db, withNewest);
  return db.messageIds.seedAndTake(stored, generation) ?? stored;
}

/**
 * Adds a new message (`row.id` is set to its id) and writes the counter row back in the same
 * transaction: a send reads no counter while the engine holds the next id. If the `add` is
 * refused because the id is taken (another engine on this database took it), it is taken again
 * after reading the row and the newest message: inside this transaction, IndexedDB has run every
 * earlier writer by then, and no message is above the newest, so the second `add` cannot clash.
 */
export async function addNewMessage(db: RealmDatabase, row: MessageRow): Promise<number> {
  row.id = db.messageIds.take() ?? (await takeStoredId(db, false));
  try {
    await db.messages.add(row);
  } catch (error) {
    if (!(error instanceof Dexie.ConstraintError)) throw error;
    row.id = await takeStoredId(db, true);
    await db.messages.add(row);
  }
  // The `add` has succeeded, so IndexedDB has run every earlier writer of this database: the held
  // id is above the ids of this engine's earlier sends, so whichever send commits last writes a
  // row above every id a committed send took. Not held (the row was written by others), the row
  // is read again, now after those writes.
  const next = db.messageIds.passedBy(row.id) ?? Math.max(await storedNext(db, false), row.id + 1);
  await db.counters.put(db.messageIds.ownRow(next));
  return row.id;
}
