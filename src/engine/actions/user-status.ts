/**
 * A user's status (text and emoji) and the deprecated `away`, which sets `presence_enabled`
 * (away = presence off), as upstream. Each update is announced to every active user
 * (`user_status`, with just the fields given).
 */
import { badRequest } from '../errors/api-error.ts';
import { checkEmojiRequest, emojiByName } from '../emoji/emoji-request.ts';
import type { UserStatusRow } from '../storage/rows.ts';
import type { CallerScope, ReadScope } from '../services/action-scope.ts';
import { userStatusToWire, type UserStatusWire } from '../wire/user-status-wire.ts';
import { activeUserIds } from './profile-fields.ts';
import { updateOwnSettings } from './user-settings.ts';

export interface StatusChange {
  away?: boolean;
  /** Already trimmed; "" clears the text. */
  statusText?: string;
  /** "" clears the emoji. */
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

const NO_STATUS = { status_text: '', emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' } as const;

export async function updateUserStatus(scope: CallerScope, change: StatusChange): Promise<void> {
  const { db, directory, caller } = scope;
  if (change.away === undefined && change.statusText === undefined && change.emojiName === undefined) {
    throw badRequest('Client did not pass any new values.');
  }
  const emoji = chosenEmoji(scope, change);

  if (change.away !== undefined) await updateOwnSettings(scope, { settings: { presence_enabled: !change.away } });
  const current = (await db.user_status.get(caller.id)) ?? { user_id: caller.id, ...NO_STATUS, timestamp: scope.now };
  const updated: UserStatusRow = { ...current, timestamp: scope.now };
  if (change.statusText !== undefined) updated.status_text = change.statusText;
  if (emoji) Object.assign(updated, { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type });
  await db.user_status.put(updated);

  const event: Record<string, unknown> = { type: 'user_status', user_id: caller.id };
  if (change.away !== undefined) event.away = change.away;
  if (change.statusText !== undefined) event.status_text = change.statusText;
  if (emoji) Object.assign(event, { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type });
  scope.notify({ event: { ...event, type: 'user_status' }, users: activeUserIds(directory) });
}

/**
 * The emoji to store, checked as upstream: "" clears it; a name alone (or without its code or
 * type) is looked up; a code or type needs a name.
 */
function chosenEmoji(scope: CallerScope, change: StatusChange): { name: string; code: string; type: UserStatusRow['reaction_type'] } | null {
  const { emojiName: name } = change;
  if (name === '') return { name: '', code: '', type: 'unicode_emoji' };
  if (name === undefined) {
    if (change.emojiCode || change.reactionType) {
      throw badRequest('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
    }
    return null;
  }
  let { emojiCode: code, reactionType: type } = change;
  if (code === undefined || type === undefined) {
    const known = emojiByName(scope.directory.emoji, name);
    code ??= known.code;
    type ??= known.type;
  }
  checkEmojiRequest(scope.directory.emoji, name, code, type);
  return { name, code, type };
}

/** GET /users/{user_id}/status: an active human's status ({} when none is set), as upstream's user access. */
export async function readUserStatus(scope: ReadScope, userId: number): Promise<UserStatusWire> {
  const user = scope.directory.users.get(userId);
  if (!user || user.is_bot || user.is_system_bot) throw badRequest('No such user');
  if (!user.is_active) throw badRequest('User is deactivated');
  const row = await scope.db.user_status.get(user.id);
  return row ? userStatusToWire(row, user) : {};
}
