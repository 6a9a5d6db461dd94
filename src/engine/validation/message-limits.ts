import { badRequest } from '../errors/api-error.ts';
import type { RealmRow } from '../storage/rows.ts';

export const MAX_MESSAGE_LENGTH = 10000;
export const MAX_TOPIC_LENGTH = 60;
export const MAX_STREAM_NAME_LENGTH = 60;
export const MAX_STREAM_DESCRIPTION_LENGTH = 1024;
export const MAX_CHANNEL_FOLDER_NAME_LENGTH = 60;
export const MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH = 1024;
export const MAX_REMINDER_NOTE_LENGTH = 1000;
export const MAX_BULK_NEW_SUBSCRIPTION_MESSAGES = 100;
export const RESOLVED_TOPIC_PREFIX = '✔ ';

export const MESSAGE_TRUNCATED_SUFFIX = '\n[message truncated]';
export const TOPIC_TRUNCATED_SUFFIX = '...';

const WHITE_SPACE = /\s/;

/** A text's length as upstream counts it: characters (code points, Python's `len`), not UTF-16 units. */
export function charLength(text: string): number {
  let count = 0;
  for (const _char of text) count++;
  return count;
}

/**
 * `text` cut to at most `max` characters, its end replaced by `suffix`, as upstream's
 * `truncate_content`. Counted in code points, so a cut never splits a surrogate pair: a lone
 * half stored in a topic made every later link to it throw (`encodeURIComponent`).
 */
export function truncateChars(text: string, max: number, suffix: string): string {
  if (text.length <= max) return text;
  const keep = max - charLength(suffix);
  let count = 0;
  let cut = 0;
  let units = 0;
  for (const char of text) {
    if (count === keep) cut = units;
    if (++count > max) return text.slice(0, cut) + suffix;
    units += char.length;
  }
  return text;
}

/**
 * Trailing white space and leading blank lines removed, as upstream's `rstrip().lstrip("\n")`.
 * One pass from each end: a `\s+$` pattern backtracks over every run of white space not at the
 * end, which costs the square of its length (160 KB of spaces then a letter: over 10 s).
 */
export function trimMessageText(text: string): string {
  let end = text.length;
  while (end > 0 && WHITE_SPACE.test(text[end - 1])) end--;
  let start = 0;
  while (start < end && text[start] === '\n') start++;
  return text.slice(start, end);
}

/**
 * Message content as upstream stores it: trailing white space and leading blank lines removed,
 * never empty, never a NUL byte, and cut (with a marker) past the length limit.
 */
export function normalizeContent(content: string): string {
  const trimmed = trimMessageText(content);
  if (trimmed === '') throw badRequest('Message must not be empty');
  if (trimmed.includes('\0')) throw badRequest('Message must not contain null bytes');
  return truncateChars(trimmed, MAX_MESSAGE_LENGTH, MESSAGE_TRUNCATED_SUFFIX);
}

/**
 * A topic as stored: stripped, `(no topic)` and the realm's empty-topic display name read as
 * the empty topic (feature levels 334 and 370), and cut with "..." past the length limit.
 */
export function normalizeTopic(topic: string, realm: RealmRow): string {
  const stripped = topic.trim();
  if (stripped.includes('\0')) throw badRequest('Topic must not contain null bytes');
  if (stripped === '(no topic)' || stripped === realm.empty_topic_display_name) return '';
  return truncateChars(stripped, MAX_TOPIC_LENGTH, TOPIC_TRUNCATED_SUFFIX);
}

/** Lower-cased words of a message, for the `search` narrow's multi-entry index. */
export function searchWords(content: string, topic: string): string[] {
  const words = new Set<string>();
  for (const match of `${topic} ${content}`.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    if (words.size >= 500) break;
    words.add(match[0]);
  }
  return [...words];
}
