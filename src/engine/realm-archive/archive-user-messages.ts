import { type MessagePlace, rederivedUserMessage } from '../storage/flags.ts';
import type { UserMessageRow } from '../storage/rows.ts';

/**
 * The archive leaves out the columns a user_messages row copies from its message (the file stays
 * as small as before they existed) and an import derives every derived column again, so
 * archives from before the place columns import the same way.
 */

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
  return rows.map((row) => rederivedUserMessage(row, byId.get(row.message_id)!));
}
