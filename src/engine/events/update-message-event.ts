import type { EventQueue } from './event-queue.ts';
import type { EngineEvent, Notice } from './event-types.ts';

/**
 * Message-change events that name topics (update_message, update_message_flags), shaped for one
 * queue: clients without the `empty_topic_name` capability see the realm's name for the empty
 * topic instead of "".
 */
export function finalizeUpdateMessageEvent(event: EngineEvent, queue: EventQueue, notice: Notice): EngineEvent[] {
  const display = emptyTopicDisplay(queue, notice);
  if (display === undefined) return [event];
  const shaped: EngineEvent = { ...event };
  if (shaped.orig_subject === '') shaped.orig_subject = display;
  if (shaped.subject === '') shaped.subject = display;
  return [shaped];
}

export function finalizeUpdateMessageFlagsEvent(event: EngineEvent, queue: EventQueue, notice: Notice): EngineEvent[] {
  const display = emptyTopicDisplay(queue, notice);
  const details = event.message_details as Record<string, Record<string, unknown>> | undefined;
  if (display === undefined || details === undefined) return [event];
  const shapedDetails = Object.fromEntries(
    Object.entries(details).map(([id, detail]) => [id, detail.topic === '' ? { ...detail, topic: display } : detail]),
  );
  return [{ ...event, message_details: shapedDetails }];
}

function emptyTopicDisplay(queue: EventQueue, notice: Notice): string | undefined {
  return queue.capabilities.empty_topic_name ? undefined : notice.emptyTopicDisplayName;
}
