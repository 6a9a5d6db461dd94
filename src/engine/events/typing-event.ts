import type { EventQueue } from './event-queue.ts';
import type { EngineEvent, Notice } from './event-types.ts';

/**
 * Channel typing reaches only clients that declared `stream_typing_notifications`; those without
 * `empty_topic_name` see the realm's name for the empty topic. Direct typing goes out unchanged.
 */
export function finalizeTypingEvent(event: EngineEvent, queue: EventQueue, notice: Notice): EngineEvent[] {
  if (!('stream_id' in event)) return [event];
  if (!queue.capabilities.stream_typing_notifications) return [];
  if (event.topic === '' && !queue.capabilities.empty_topic_name && notice.emptyTopicDisplayName !== undefined) {
    return [{ ...event, topic: notice.emptyTopicDisplayName }];
  }
  return [event];
}
