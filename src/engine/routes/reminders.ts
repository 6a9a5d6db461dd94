import { deleteReminder, scheduleReminder } from '../actions/scheduled-messages.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { int, pathId, str } from '../http/param-types.ts';
import { reminderToWire, undeliveredOf } from '../wire/scheduled-wire.ts';

/**
 * Reminders about a message, delivered by Notification Bot (upstream feature levels 381, 399
 * and 415 for the note).
 */
export const reminderEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/reminders',
    params: {},
    async read(scope) {
      const rows = await undeliveredOf(scope.db, scope.caller.id, 'reminder');
      return { reminders: rows.map(reminderToWire) };
    },
  }),

  defineEndpoint({
    method: 'POST',
    path: '/reminders',
    params: {
      message_id: int(),
      scheduled_delivery_timestamp: int(),
      note: str().optional(),
    },
    async write(scope, params) {
      const id = await scheduleReminder(scope, {
        messageId: params.message_id,
        deliverAt: params.scheduled_delivery_timestamp,
        note: params.note,
      });
      return { reminder_id: id };
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/reminders/{reminder_id}',
    params: { reminder_id: pathId() },
    async write(scope, params) {
      await deleteReminder(scope, params.reminder_id);
      return {};
    },
  }),
];
