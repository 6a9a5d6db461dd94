import type { RealmDatabase } from '../storage/database.ts';
import type { ScheduledMessageRow } from '../storage/rows.ts';

/** Upstream keeps reminders in the scheduled-message table; the target message tells them apart. */
export const isReminder = (row: ScheduledMessageRow): boolean => row.reminder_target_message_id !== null;

/**
 * A scheduled message as the API shows it (upstream's ScheduledMessage object). `topic` is
 * present for channel messages only; `displayTopic` lets a caller show the empty topic under
 * the realm's name for clients without `empty_topic_name`.
 */
export function scheduledMessageToWire(
  row: ScheduledMessageRow,
  displayTopic: (topic: string) => string = (topic) => topic,
): Record<string, unknown> {
  return {
    scheduled_message_id: row.id,
    to: row.to,
    type: row.type,
    content: row.content,
    rendered_content: row.rendered_content,
    ...(row.type === 'stream' && { topic: displayTopic(row.topic) }),
    scheduled_delivery_timestamp: row.scheduled_delivery_timestamp,
    failed: row.failed,
  };
}

/** A reminder as the API shows it (feature level 399): always a direct message to oneself. */
export function reminderToWire(row: ScheduledMessageRow): Record<string, unknown> {
  return {
    reminder_id: row.id,
    to: row.to,
    type: row.type,
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_delivery_timestamp,
    failed: row.failed,
    reminder_target_message_id: row.reminder_target_message_id,
  };
}

/**
 * A user's undelivered scheduled messages or reminders (failed ones included, so that the
 * user can see and fix them), earliest delivery first.
 */
export async function undeliveredOf(
  db: RealmDatabase,
  userId: number,
  kind: 'scheduled' | 'reminder',
): Promise<ScheduledMessageRow[]> {
  const rows = await db.scheduled_messages.where('user_id').equals(userId).toArray();
  return rows
    .filter((row) => isReminder(row) === (kind === 'reminder'))
    .sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.id - b.id);
}
