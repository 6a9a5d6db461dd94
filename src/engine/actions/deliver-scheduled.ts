import type { ActionScope } from '../services/action-scope.ts';
import { sendMessage } from './send-message.ts';
import { badRequest } from '../errors/api-error.ts';
import { RealmDirectory } from '../directory/realm-directory.ts';
import { loadAccessibleMessages } from '../narrow/message-access.ts';
import type { ScheduledMessageRow, UserRow } from '../storage/rows.ts';
import { reminderContent } from './reminder-content.ts';
import { isReminder, scheduledMessageToWire } from '../wire/scheduled-wire.ts';
import { isReplicaDatabase } from '../storage/replica-database.ts';

/** Upstream's client name for messages the server sends itself. */
const INTERNAL_CLIENT = 'Internal';
/** The client recorded on rows scheduled before the client was kept (archives of older builds). */
const SCHEDULER_CLIENT = 'Offline Realm scheduler';

/**
 * Sends the due scheduled message (or reminder) `id` as its author would send it now: the send's
 * checks run again, since permissions may have changed since it was scheduled. A row edited or
 * deleted since it fell due is left alone.
 */
export async function deliverDueMessage(scope: ActionScope, id: number): Promise<void> {
  const row = await dueRow(scope, id);
  if (!row) return;
  const directory = await RealmDirectory.load(scope.db);
  const author = directory.users.get(row.user_id);
  if (!author?.is_active) {
    // As upstream: a deactivated author is not told (nor are they able to read it).
    await markDeliveryFailed(scope, id, 'Account is deactivated', false);
    return;
  }
  if (isReminder(row)) {
    await sendReminder(scope, directory, author, row);
    await scope.db.scheduled_messages.delete(id);
    scope.notify({ event: { type: 'reminders', op: 'remove', reminder_id: id }, users: [author.id] });
    return;
  }
  const toSelf = row.type === 'private' && (row.to as number[]).every((userId) => userId === author.id);
  await sendMessage(scope, directory, {
    sender: author,
    to:
      row.type === 'stream'
        ? { kind: 'channel', channel: { id: row.to as number }, topic: row.topic }
        : { kind: 'direct', users: (row.to as number[]).map((userId) => ({ id: userId })) },
    content: row.content,
    client: row.client ?? SCHEDULER_CLIENT,
    // A message scheduled to oneself should arrive unread: that is its point (upstream's default).
    readBySender: row.read_by_sender ?? (toSelf ? false : undefined),
  });
  await scope.db.scheduled_messages.delete(id);
  scope.notify({ event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, users: [author.id] });
}

/**
 * Notification Bot sends the reminder; its text is rebuilt from the message when the user can
 * still see it (it may have been edited), else the text saved when it was scheduled is used.
 */
async function sendReminder(scope: ActionScope, directory: RealmDirectory, user: UserRow, row: ScheduledMessageRow): Promise<void> {
  const target = (await loadAccessibleMessages(scope.db, directory, user, [row.reminder_target_message_id!])).get(
    row.reminder_target_message_id!,
  );
  const content = target ? reminderContent(target.row, directory, row.reminder_note ?? '') : row.content;
  const bot = notificationBot(directory);
  if (!bot) throw badRequest('Reminder could not be sent.');
  await sendMessage(scope, directory, {
    sender: bot,
    to: { kind: 'direct', users: [{ id: user.id }] },
    content,
    client: INTERNAL_CLIENT,
  });
}

/**
 * Marks a row failed with its reason. Its author sees the change (an update event) and gets a
 * direct message from Notification Bot, as upstream does; reminders fail silently upstream.
 */
export async function markDeliveryFailed(scope: ActionScope, id: number, reason: string, tellAuthor: boolean): Promise<void> {
  const row = await dueRow(scope, id);
  if (!row) return;
  const failed: ScheduledMessageRow = { ...row, failed: true, failure_message: reason };
  delete failed.pending;
  await scope.db.scheduled_messages.put(failed);
  if (!tellAuthor || isReminder(row)) return;
  const directory = await RealmDirectory.load(scope.db);
  scope.notify({
    event: { type: 'scheduled_messages', op: 'update', scheduled_message: scheduledMessageToWire(failed) },
    users: [row.user_id],
    emptyTopicDisplayName: directory.realm.empty_topic_display_name,
  });
  const bot = notificationBot(directory);
  if (!bot || !directory.users.get(row.user_id)?.is_active) return;
  await sendMessage(scope, directory, {
    sender: bot,
    to: { kind: 'direct', users: [{ id: row.user_id }] },
    content: failureNotice(row.scheduled_delivery_timestamp, reason),
    client: INTERNAL_CLIENT,
  });
}

function notificationBot(directory: RealmDirectory): UserRow | undefined {
  const id = directory.realm.notification_bot_id;
  return id === null ? undefined : directory.users.get(id);
}

/** The row if it still waits and is due: an edit or a delete may have come first. */
async function dueRow(scope: ActionScope, id: number): Promise<ScheduledMessageRow | undefined> {
  const [row, replica] = await Promise.all([scope.db.scheduled_messages.get(id), isReplicaDatabase(scope.db)]);
  return !replica && row?.pending === 1 && row.scheduled_delivery_timestamp <= scope.now ? row : undefined;
}

function failureNotice(deliveryTimestamp: number, reason: string): string {
  const when = new Date(deliveryTimestamp * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
  return [
    `The message you scheduled for <time:${when}> was not sent because of the following error:`,
    `> ${reason}`,
    '[View scheduled messages](#scheduled)',
  ].join('\n\n');
}
