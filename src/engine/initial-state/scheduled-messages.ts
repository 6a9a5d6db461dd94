import { displayTopic } from '../wire/message-wire.ts';
import { reminderToWire, scheduledMessageToWire, undeliveredOf } from '../wire/scheduled-wire.ts';
import type { StateContext } from './state-context.ts';

/** `scheduled_messages`: the caller's undelivered scheduled messages, earliest first. */
export async function scheduledMessagesSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const rows = ctx.user ? await undeliveredOf(ctx.db, ctx.user.id, 'scheduled') : [];
  const shownTopic = (topic: string) => displayTopic(topic, ctx.directory, ctx.capabilities.empty_topic_name);
  return { scheduled_messages: rows.map((row) => scheduledMessageToWire(row, shownTopic)) };
}

/** `reminders` (feature level 399): the caller's undelivered reminders, earliest first. */
export async function remindersSection(ctx: StateContext): Promise<Record<string, unknown>> {
  const rows = ctx.user ? await undeliveredOf(ctx.db, ctx.user.id, 'reminder') : [];
  return { reminders: rows.map(reminderToWire) };
}
