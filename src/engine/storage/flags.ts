import { FLAG_BITS, type FlagName, type MessageRow, type UserMessageRow } from './rows.ts';

const FLAG_NAMES = Object.keys(FLAG_BITS) as FlagName[];

/** Flags a client may change with POST /messages/flags; the rest are set by the server. */
export const EDITABLE_FLAGS: ReadonlySet<string> = new Set(['read', 'starred', 'collapsed']);
export const ALL_FLAGS: ReadonlySet<string> = new Set([...FLAG_NAMES, 'wildcard_mentioned']);

/** The API's flag list for a bitmask, with upstream's synthetic `wildcard_mentioned`. */
export function flagList(bits: number): string[] {
  const list: string[] = FLAG_NAMES.filter((name) => bits & FLAG_BITS[name]);
  if (bits & (FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) {
    list.push('wildcard_mentioned');
  }
  return list;
}

const ANY_MENTION =
  FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.group_mentioned;

/** What a user_messages row copies from its message. */
export type MessagePlace = Pick<MessageRow, 'id' | 'sender_id' | 'stream_id' | 'topic_key' | 'dm_key'>;

/** The message's columns a user_messages row carries: where it is and who sent it. */
export function placeColumns(message: MessagePlace): Pick<UserMessageRow, 'stream_id' | 'thread_key' | 'sender_id'> {
  return message.stream_id === undefined
    ? { stream_id: 0, thread_key: message.dm_key!, sender_id: message.sender_id }
    : { stream_id: message.stream_id, thread_key: message.topic_key!, sender_id: message.sender_id };
}

/** A user_messages row for `bits`, with its message's place and its sparse index columns set to match. */
export function userMessageRow(userId: number, message: MessagePlace, bits: number): UserMessageRow {
  return withIndexColumns({ user_id: userId, message_id: message.id, flags: bits, ...placeColumns(message) });
}

/** Recomputes the sparse index columns after `flags` changed (the place columns are kept). */
export function withIndexColumns(row: UserMessageRow): UserMessageRow {
  const next: UserMessageRow = {
    user_id: row.user_id,
    message_id: row.message_id,
    flags: row.flags,
    stream_id: row.stream_id,
    thread_key: row.thread_key,
    sender_id: row.sender_id,
  };
  if (!(row.flags & FLAG_BITS.read)) next.unread = 1;
  if (row.flags & FLAG_BITS.starred) next.starred = 1;
  if (row.flags & ANY_MENTION) next.mentioned = 1;
  if (row.flags & FLAG_BITS.has_alert_word) next.alerted = 1;
  return next;
}

/**
 * Columns of a user_messages row that follow from its flags and its message; `dm` is the sparse
 * column rows had before direct messages became channel 0.
 */
const DERIVED_COLUMNS: ReadonlySet<string> = new Set(['stream_id', 'thread_key', 'sender_id', 'unread', 'starred', 'mentioned', 'alerted', 'dm']);

/**
 * A row read from elsewhere (an archive, storage written before the place columns) with every
 * derived column computed again from its flags and its message; other columns are kept.
 */
export function rederivedUserMessage(
  row: { user_id: number; message_id: number; flags: number } & Record<string, unknown>,
  message: MessagePlace,
): UserMessageRow {
  const kept = Object.fromEntries(Object.entries(row).filter(([column]) => !DERIVED_COLUMNS.has(column)));
  return { ...kept, ...withIndexColumns({ user_id: row.user_id, message_id: row.message_id, flags: row.flags, ...placeColumns(message) }) };
}
