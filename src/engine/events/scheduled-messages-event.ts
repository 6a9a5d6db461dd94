import type { EventQueue } from './event-queue.ts';
import type { EngineEvent, Notice } from './event-types.ts';

type WireScheduled = Record<string, unknown> & { topic?: string };

/**
 * A scheduled_messages event for one queue: clients without `empty_topic_name` see the
 * realm's name for the empty topic of a channel message, as in their register state.
 */
export function finalizeScheduledMessagesEvent(event: EngineEvent, queue: EventQueue, notice: Notice): EngineEvent[] {
  const name = notice.emptyTopicDisplayName;
  if (queue.capabilities.empty_topic_name || name === undefined) return [event];
  const shown = (message: WireScheduled): WireScheduled => (message.topic === '' ? { ...message, topic: name } : message);
  if (event.op === 'add') return [{ ...event, scheduled_messages: (event.scheduled_messages as WireScheduled[]).map(shown) }];
  if (event.op === 'update') return [{ ...event, scheduled_message: shown(event.scheduled_message as WireScheduled) }];
  return [event];
}
