/**
 * GET /messages/{id}/read_receipts, upstream's rules: who marked a message the caller can see
 * as read, leaving out its sender, deactivated users, users who turned `send_read_receipts`
 * off, and anyone the caller muted or who muted the caller. Refused while the realm's
 * `enable_read_receipts` is off.
 */
import { badRequest } from '../errors/api-error.ts';
import { loadAccessibleMessage } from '../narrow/message-access.ts';
import type { ReadScope } from '../services/action-scope.ts';
import { USER_SETTING_DEFAULTS } from '../settings/user-settings.ts';
import { FLAG_BITS, type UserRow } from '../storage/rows.ts';

const sendsReadReceipts = (user: UserRow): boolean =>
  (user.settings.send_read_receipts ?? USER_SETTING_DEFAULTS.send_read_receipts) === true;

export async function readReceipts(scope: ReadScope, messageId: number): Promise<number[]> {
  const { db, directory, caller } = scope;
  const { row } = await loadAccessibleMessage(db, directory, caller, messageId);
  if (directory.realm.enable_read_receipts !== true) throw badRequest('Read receipts are disabled in this organization.');
  const [muting, mutedByCaller, receivers] = await Promise.all([
    db.muted_users.where('muted_user_id').equals(caller.id).toArray(),
    db.muted_users.where('user_id').equals(caller.id).toArray(),
    db.user_messages.where('message_id').equals(row.id).toArray(),
  ]);
  const hidden = new Set([row.sender_id, ...muting.map((m) => m.user_id), ...mutedByCaller.map((m) => m.muted_user_id)]);
  return receivers
    .filter((received) => received.flags & FLAG_BITS.read && !hidden.has(received.user_id))
    .map((received) => received.user_id)
    .filter((id) => {
      const user = directory.users.get(id);
      return user !== undefined && user.is_active && sendsReadReceipts(user);
    })
    .sort((a, b) => a - b);
}
