// The write cost of the user_messages place columns: a send's flag rows written bare into two
// databases that differ only in their user_messages indexes, as before the place columns and now.
import { Dexie, type Table } from 'dexie';
import { USER_MESSAGES_INDEXES } from '../src/engine/storage/database.ts';
import { type MessagePlace, userMessageRow } from '../src/engine/storage/flags.ts';
import { FLAG_BITS, type UserMessageRow } from '../src/engine/storage/rows.ts';

/** The user_messages indexes before the place columns (commit 7891ad3). */
const INDEXES_BEFORE =
  '[user_id+message_id], message_id, [user_id+unread+message_id], [user_id+starred+message_id], [user_id+mentioned+message_id], [user_id+dm+message_id], [user_id+alerted+message_id]';

export type FlagLayout = 'before' | 'now';

export interface FlagLayouts {
  /** Writes the send's flag rows in one read-write transaction of that layout's database; returns ms. */
  write(layout: FlagLayout, message: MessagePlace, recipients: readonly number[]): Promise<number>;
  /** Writes stored rows (as now) in one transaction of that layout's database, shaped as that layout stored them; returns ms. */
  writeRows(layout: FlagLayout, rows: readonly UserMessageRow[]): Promise<number>;
  close(): void;
}

/** A row as the send action wrote it before the place columns: flags and sparse columns only. */
function shapedBefore(row: UserMessageRow): Record<string, unknown> {
  const { stream_id, thread_key: _thread, sender_id: _sender, ...before } = row;
  return stream_id === 0 ? { ...before, dm: 1 } : before;
}

export function openFlagLayouts(options: { indexedDB: IDBFactory; IDBKeyRange: typeof IDBKeyRange; name: string }): FlagLayouts {
  const open = (layout: FlagLayout, indexes: string) => {
    const db = new Dexie(`${options.name}-${layout}`, { indexedDB: options.indexedDB, IDBKeyRange: options.IDBKeyRange });
    db.version(1).stores({ user_messages: indexes });
    return db;
  };
  const databases = { before: open('before', INDEXES_BEFORE), now: open('now', USER_MESSAGES_INDEXES) };
  const writeRows = async (layout: FlagLayout, rows: readonly UserMessageRow[]) => {
    const shaped = layout === 'now' ? rows : rows.map(shapedBefore);
    const db = databases[layout];
    const table = db.table('user_messages') as Table;
    const start = performance.now();
    await db.transaction('rw', table, () => table.bulkPut(shaped));
    return performance.now() - start;
  };
  return {
    write: (layout, message, recipients) =>
      writeRows(layout, recipients.map((userId) => userMessageRow(userId, message, userId === message.sender_id ? FLAG_BITS.read : 0))),
    writeRows,
    close() {
      databases.before.close();
      databases.now.close();
    },
  };
}
