import { FLAG_BITS, type FlagName, type UserMessageRow } from './rows.ts';

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

/** A user_messages row for `bits`, with its sparse index columns set to match. */
export function userMessageRow(userId: number, messageId: number, bits: number, isDirect: boolean): UserMessageRow {
  const row: UserMessageRow = { user_id: userId, message_id: messageId, flags: bits };
  return withIndexColumns(row, isDirect);
}

/** Recomputes the sparse index columns after `flags` changed. */
export function withIndexColumns(row: UserMessageRow, isDirect: boolean = row.dm === 1): UserMessageRow {
  const next: UserMessageRow = { user_id: row.user_id, message_id: row.message_id, flags: row.flags };
  if (!(row.flags & FLAG_BITS.read)) next.unread = 1;
  if (row.flags & FLAG_BITS.starred) next.starred = 1;
  if (row.flags & ANY_MENTION) next.mentioned = 1;
  if (isDirect) next.dm = 1;
  if (row.flags & FLAG_BITS.has_alert_word) next.alerted = 1;
  return next;
}
