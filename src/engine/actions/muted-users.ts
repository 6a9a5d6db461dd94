/**
 * Muting another user, as upstream: the muted user's messages the muter has not read become
 * read (one update_message_flags event), and new ones arrive read (`usersMuting` in directory/cached-reads.ts). Each change
 * sends the muter's whole list (`muted_users` event, to the muter only).
 */
import { badRequest } from '../errors/api-error.ts';
import { withIndexColumns } from '../storage/flags.ts';
import { FLAG_BITS, type UserRow } from '../storage/rows.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { mutedUsersOf } from '../wire/muted-user-wire.ts';

export async function muteUser(scope: CallerScope, mutedUserId: number): Promise<void> {
  const { db, caller } = scope;
  if (mutedUserId === caller.id) throw badRequest('Cannot mute self');
  const muted = mutableUser(scope, mutedUserId);
  if (await db.muted_users.get([caller.id, muted.id])) throw badRequest('User already muted');
  await db.muted_users.add({ user_id: caller.id, muted_user_id: muted.id, date_muted: scope.now });
  await markMessagesFromAsRead(scope, muted.id);
  await announce(scope);
}

export async function unmuteUser(scope: CallerScope, mutedUserId: number): Promise<void> {
  const { db, caller } = scope;
  const muted = mutableUser(scope, mutedUserId);
  if (!(await db.muted_users.get([caller.id, muted.id]))) throw badRequest('User is not muted');
  await db.muted_users.delete([caller.id, muted.id]);
  await announce(scope);
}

/** The users who muted `senderId`: a message from that sender starts out read for them. */
/** Any member of the realm, bots and deactivated users included; system bots are not members. */
function mutableUser(scope: CallerScope, userId: number): UserRow {
  const user = scope.directory.users.get(userId);
  if (!user || user.is_system_bot) throw badRequest('No such user');
  return user;
}

async function markMessagesFromAsRead(scope: CallerScope, senderId: number): Promise<void> {
  const { db, caller } = scope;
  const unread = await db.user_messages.where('[user_id+unread+message_id]').between([caller.id, 1, 0], [caller.id, 1, Infinity]).toArray();
  const messages = await db.messages.bulkGet(unread.map((row) => row.message_id));
  const fromSender = unread.filter((_, i) => messages[i]?.sender_id === senderId);
  if (fromSender.length === 0) return;
  await db.user_messages.bulkPut(fromSender.map((row) => withIndexColumns({ ...row, flags: row.flags | FLAG_BITS.read })));
  scope.notify({
    event: { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: fromSender.map((row) => row.message_id), all: false },
    users: [caller.id],
  });
}

async function announce(scope: CallerScope): Promise<void> {
  scope.notify({ event: { type: 'muted_users', muted_users: await mutedUsersOf(scope.db, scope.caller.id) }, users: [scope.caller.id] });
}
