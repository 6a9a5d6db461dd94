import { messageRenderOptions } from '../settings/user-settings.ts';
import { ApiError, badRequest } from '../errors/api-error.ts';
import { normalizeContent, normalizeTopic } from '../validation/message-limits.ts';
import type { RealmDirectory } from '../directory/realm-directory.ts';
import { renderMessage } from '../markdown/render-message.ts';
import { loadAccessibleMessage } from '../narrow/message-access.ts';
import { normalizeReminderNote, reminderContent } from './reminder-content.ts';
import { isReminder, reminderToWire, scheduledMessageToWire } from '../wire/scheduled-wire.ts';
import { nextId, type RealmDatabase } from '../storage/database.ts';
import type { ScheduledMessageRow, UserRow } from '../storage/rows.ts';
import type { CallerScope } from '../services/action-scope.ts';
import { type MessageTarget, resolveTarget } from './send-message.ts';

export type ScheduledType = 'stream' | 'private';
/** `to` as clients send it: a channel id, or user ids (one id is read as a list of one). */
export type ScheduledTo = number | number[];

export interface ScheduleInput {
  type: ScheduledType;
  to: ScheduledTo;
  topic: string | undefined;
  content: string;
  deliverAt: number;
  readBySender: boolean | undefined;
}

export interface ScheduledEdit {
  id: number;
  type?: ScheduledType;
  to?: ScheduledTo;
  topic?: string;
  content?: string;
  deliverAt?: number;
}

export interface ReminderInput {
  messageId: number;
  deliverAt: number;
  note: string | undefined;
}

const deliveryTimeNotInFuture = (): ApiError => badRequest('Scheduled delivery time must be in the future.');

/**
 * Refuses a delivery time that is not strictly in the future. Upstream compares to the
 * instant; for whole seconds that is the same as comparing to the current whole second.
 */
function checkDeliveryTime(now: number, deliverAt: number): void {
  if (deliverAt <= now) throw deliveryTimeNotInFuture();
}

/**
 * Stores the caller's message to send later, after the same checks a send runs now. The
 * delivery scheduler sees the committed row by itself.
 */
export async function scheduleMessage(scope: CallerScope, input: ScheduleInput): Promise<number> {
  const { db, directory, caller: sender } = scope;
  checkDeliveryTime(scope.now, input.deliverAt);
  const content = normalizeContent(input.content);
  const target = await resolveScheduledTarget(db, directory, sender, input.type, input.to, input.topic);
  const row: ScheduledMessageRow = {
    ...(await pendingRow(scope, target, content, input.deliverAt)),
    ...(input.readBySender !== undefined && { read_by_sender: input.readBySender }),
  };
  await db.scheduled_messages.add(row);
  scope.notify({
    event: { type: 'scheduled_messages', op: 'add', scheduled_messages: [scheduledMessageToWire(row)] },
    users: [sender.id],
    emptyTopicDisplayName: directory.realm.empty_topic_display_name,
  });
  return row.id;
}

/**
 * Edits a scheduled message (spec 4.2). Any change to the type, recipients, content or a
 * channel message's topic re-runs the send checks on the result; a failed message comes back
 * to life only with a new delivery time.
 */
export async function editScheduledMessage(scope: CallerScope, edit: ScheduledEdit): Promise<void> {
  const { db, directory, caller: sender } = scope;
  // Spec 4.2: a topic the type change requires may be neither empty nor a name of the empty topic.
  if (edit.type === 'stream' && (edit.topic === undefined || normalizeTopic(edit.topic, directory.realm) === '')) {
    throw badRequest('Topic required when updating scheduled message type to channel.');
  }
  if (edit.deliverAt !== undefined) checkDeliveryTime(scope.now, edit.deliverAt);
  const row = await ownScheduledMessage(db, sender, edit.id);
  if (row.failed && edit.deliverAt === undefined) throw deliveryTimeNotInFuture();
  const type = edit.type ?? row.type;
  const updated: ScheduledMessageRow = { ...row, client: scope.clientName };
  const topicEdited = edit.topic !== undefined && type === 'stream';
  if (edit.type !== undefined || edit.to !== undefined || edit.content !== undefined || topicEdited) {
    const content = edit.content === undefined ? row.content : normalizeContent(edit.content);
    const target = await resolveScheduledTarget(db, directory, sender, type, edit.to ?? row.to, edit.topic ?? row.topic);
    Object.assign(updated, targetFields(target, sender));
    if (edit.content !== undefined) {
      updated.content = content;
      updated.rendered_content = renderMessage(content, directory.markdownRealm(), messageRenderOptions(sender)).html;
    }
  }
  if (edit.deliverAt !== undefined) updated.scheduled_delivery_timestamp = edit.deliverAt;
  updated.failed = false;
  updated.failure_message = null;
  updated.pending = 1;
  await db.scheduled_messages.put(updated);
  scope.notify({
    event: { type: 'scheduled_messages', op: 'update', scheduled_message: scheduledMessageToWire(updated) },
    users: [sender.id],
    emptyTopicDisplayName: directory.realm.empty_topic_display_name,
  });
}

export async function deleteScheduledMessage(scope: CallerScope, id: number): Promise<void> {
  const { db, caller: sender } = scope;
  await ownScheduledMessage(db, sender, id);
  await db.scheduled_messages.delete(id);
  scope.notify({ event: { type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }, users: [sender.id] });
}

/**
 * Schedules a reminder about a message the user can see (upstream's POST /reminders): a
 * direct message Notification Bot will send the user, quoting the message.
 */
export async function scheduleReminder(scope: CallerScope, input: ReminderInput): Promise<number> {
  const { db, directory, caller: user } = scope;
  checkDeliveryTime(scope.now, input.deliverAt);
  const { row: message } = await loadAccessibleMessage(db, directory, user, input.messageId);
  const note = input.note ? normalizeReminderNote(input.note) : '';
  const content = normalizeContent(reminderContent(message, directory, note));
  // Upstream checks the reminder as a direct message to oneself.
  const target = await resolveTarget(db, directory, user, { kind: 'direct', users: [{ id: user.id }] });
  const row: ScheduledMessageRow = {
    ...(await pendingRow(scope, target, content, input.deliverAt)),
    reminder_target_message_id: message.id,
    ...(note && { reminder_note: note }),
  };
  await db.scheduled_messages.add(row);
  scope.notify({ event: { type: 'reminders', op: 'add', reminders: [reminderToWire(row)] }, users: [user.id] });
  return row.id;
}

export async function deleteReminder(scope: CallerScope, id: number): Promise<void> {
  const { db, caller: user } = scope;
  const row = await db.scheduled_messages.get(id);
  if (!row || row.user_id !== user.id || !isReminder(row)) {
    throw new ApiError('Reminder does not exist', { status: 404 });
  }
  await db.scheduled_messages.delete(id);
  scope.notify({ event: { type: 'reminders', op: 'remove', reminder_id: id }, users: [user.id] });
}

/** The caller's own scheduled message (never a reminder), or upstream's 404. */
async function ownScheduledMessage(db: RealmDatabase, sender: UserRow, id: number): Promise<ScheduledMessageRow> {
  const row = await db.scheduled_messages.get(id);
  if (!row || row.user_id !== sender.id || isReminder(row)) {
    throw new ApiError('Scheduled message does not exist', { status: 404 });
  }
  return row;
}

/** Reads `to` for the type as upstream does (one channel id; a set of user ids), then checks the target. */
function resolveScheduledTarget(
  db: RealmDatabase,
  directory: RealmDirectory,
  sender: UserRow,
  type: ScheduledType,
  to: ScheduledTo,
  topic: string | undefined,
): Promise<MessageTarget> {
  if (type === 'stream') {
    const channelId = typeof to === 'number' ? to : to.length === 1 ? to[0] : null;
    if (channelId === null) throw badRequest('Invalid data type for channel ID');
    return resolveTarget(db, directory, sender, { kind: 'channel', channel: { id: channelId }, topic });
  }
  const userIds = typeof to === 'number' ? [to] : [...new Set(to)];
  return resolveTarget(db, directory, sender, { kind: 'direct', users: userIds.map((id) => ({ id })) });
}

/**
 * The stored type, `to` and topic of a checked target, in upstream's shape: a direct `to`
 * lists the other participants (or only the sender, for a message to oneself).
 */
/** A new row waiting for its time, sent by the caller to `target`: what messages and reminders share. */
async function pendingRow(scope: CallerScope, target: MessageTarget, content: string, deliverAt: number): Promise<ScheduledMessageRow> {
  return {
    id: await nextId(scope.db, 'scheduled_message'),
    user_id: scope.caller.id,
    ...targetFields(target, scope.caller),
    content,
    rendered_content: renderMessage(content, scope.directory.markdownRealm(), messageRenderOptions(scope.caller)).html,
    scheduled_delivery_timestamp: deliverAt,
    failed: false,
    failure_message: null,
    pending: 1,
    reminder_target_message_id: null,
    client: scope.clientName,
  };
}

function targetFields(target: MessageTarget, sender: UserRow): Pick<ScheduledMessageRow, 'type' | 'to' | 'topic'> {
  if (target.kind === 'channel') return { type: 'stream', to: target.channel.id, topic: target.topic };
  const others = target.recipients.filter((id) => id !== sender.id).sort((a, b) => a - b);
  return { type: 'private', to: others.length > 0 ? others : [sender.id], topic: '' };
}
