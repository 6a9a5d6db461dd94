import { readSnapshot } from '../actions/run-action.ts';
import { deleteReminder, scheduleReminder } from '../actions/scheduled-messages.ts';
import { defineEndpoint } from '../http/endpoint.ts';
import { int, pathId, str } from '../http/param-types.ts';
import { reminderToWire, undeliveredOf } from '../scheduler/scheduled-wire.ts';

/**
 * Reminders about a message, delivered by Notification Bot (upstream feature levels 381, 399
 * and 415 for the note).
 */
export const reminderEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/reminders',
    params: {},
    async handler(ctx) {
      const rows = await readSnapshot(ctx.engine, (db) => undeliveredOf(db, ctx.user.id, 'reminder'));
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
    async handler(ctx, params) {
      const id = await scheduleReminder(ctx.engine, ctx.user, {
        messageId: params.message_id,
        deliverAt: params.scheduled_delivery_timestamp,
        note: params.note,
        client: ctx.clientName,
      });
      return { reminder_id: id };
    },
  }),

  defineEndpoint({
    method: 'DELETE',
    path: '/reminders/{reminder_id}',
    params: { reminder_id: pathId() },
    async handler(ctx, params) {
      await deleteReminder(ctx.engine, ctx.user, params.reminder_id);
      return {};
    },
  }),
];
