import type { User } from '../api/wire-types.ts';

/**
 * A direct message's `To` as the compose box keeps it: entries (emails, or names) separated by
 * commas. The field shows the finished entries as pills and the rest as the text being typed.
 */

/** The entries of `to`, trimmed, empty ones left out. */
export function recipientEntries(to: string): string[] {
  return to
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/** The active person an entry names, by email or full name (any case). */
export function findRecipient(entry: string, users: Iterable<User>): User | undefined {
  const name = entry.trim().toLowerCase();
  if (!name) return undefined;
  for (const user of users) {
    if (!user.is_active) continue;
    if (user.email.toLowerCase() === name || user.delivery_email?.toLowerCase() === name || user.full_name.toLowerCase() === name) return user;
  }
  return undefined;
}

/** Recipients typed in `To`, resolved against the realm's users. */
export function resolveRecipients(text: string, users: Iterable<User>): { ids: number[]; unknown: string[] } {
  const all = [...users];
  const ids: number[] = [];
  const unknown: string[] = [];
  for (const entry of recipientEntries(text)) {
    const user = findRecipient(entry, all);
    if (user) ids.push(user.user_id);
    else unknown.push(entry);
  }
  return { ids: [...new Set(ids)], unknown };
}

/** `to` from the pills and the text being typed after them: that text counts when sending too. */
export function joinRecipients(pills: readonly string[], typed: string): string {
  return [...pills, typed.trim()].filter(Boolean).join(', ');
}

/**
 * The text typed in `To` made into pills as upstream's comma does: each entry before the last
 * comma (every entry when `whole`, as on Enter) that names a person becomes their pill, by email,
 * unless they have one already. Entries that name no one stay typed, to be fixed: upstream
 * refuses an unknown recipient. Text with no finished entry is left as it is, the caret with it.
 */
export function pillsFromTyped(
  pills: readonly string[],
  text: string,
  find: (entry: string) => User | undefined,
  whole = false,
): { pills: string[]; typed: string } {
  const parts = text.split(',');
  const last = whole ? '' : parts.pop()!;
  if (parts.length === 0) return { pills: [...pills], typed: text };
  const made = [...pills];
  const chosen = new Set(pills.map((entry) => find(entry)?.user_id));
  const kept: string[] = [];
  for (const part of parts.map((entry) => entry.trim()).filter(Boolean)) {
    const user = find(part);
    if (!user) kept.push(part);
    else if (!chosen.has(user.user_id)) {
      chosen.add(user.user_id);
      made.push(user.email);
    }
  }
  const rest = last.trimStart();
  return { pills: made, typed: whole || kept.length === 0 ? [...kept, rest].filter(Boolean).join(', ') : `${kept.join(', ')}, ${rest}` };
}
