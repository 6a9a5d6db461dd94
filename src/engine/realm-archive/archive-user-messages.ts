import { type MessagePlace, placeColumns, withIndexColumns } from '../storage/flags.ts';
import type { UserMessageRow } from '../storage/rows.ts';

/**
 * Columns of a user_messages row that follow from its flags and its message. The archive leaves
 * the message's place out (the file stays as small as before it existed) and an import derives
 * them all again, so archives from before the place columns import the same way. `dm` is the
 * sparse column older archives carry (direct messages are now channel 0).
 */
const DERIVED = ['stream_id', 'thread_key', 'sender_id', 'unread', 'starred', 'mentioned', 'alerted', 'dm'];

/** A stored row as the archive writes it: without the message's place, which an import derives. */
export function archivedUserMessage(row: UserMessageRow): Record<string, unknown> {
  const { stream_id: _stream, thread_key: _thread, sender_id: _sender, ...archived } = row;
  return archived;
}

/** A row's index of an archive's user_messages whose message the archive lacks, or -1. */
export function orphanUserMessage(rows: readonly { message_id: number }[], messages: readonly MessagePlace[]): number {
  const ids = new Set(messages.map((m) => m.id));
  return rows.findIndex((row) => !ids.has(row.message_id));
}

/** The archive's rows as stored: their derived columns computed from their flags and their message. */
export function importedUserMessages(
  rows: readonly ({ user_id: number; message_id: number; flags: number } & Record<string, unknown>)[],
  messages: readonly MessagePlace[],
): UserMessageRow[] {
  const byId = new Map(messages.map((m) => [m.id, m]));
  return rows.map((row) => {
    const kept = Object.fromEntries(Object.entries(row).filter(([column]) => !DERIVED.includes(column)));
    const derived = withIndexColumns({ ...(kept as Pick<UserMessageRow, 'user_id' | 'message_id' | 'flags'>), ...placeColumns(byId.get(row.message_id)!) });
    return { ...kept, ...derived };
  });
}
