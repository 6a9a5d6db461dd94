import type { User } from '../api/wire-types.ts';

/**
 * How upstream writes a mention of a person: `@**Full Name**`, with `|id` when another active
 * person has the same name (the server could not tell them apart by the name alone).
 */
export function mentionSyntax(user: Pick<User, 'user_id' | 'full_name'>, everyone: Iterable<Pick<User, 'user_id' | 'full_name' | 'is_active'>>): string {
  const name = user.full_name.toLowerCase();
  for (const other of everyone) {
    if (other.user_id !== user.user_id && other.is_active && other.full_name.toLowerCase() === name) return `@**${user.full_name}|${user.user_id}**`;
  }
  return `@**${user.full_name}**`;
}
