import type { EventQueue } from './event-queue.ts';
import type { EngineEvent, Notice } from './event-types.ts';

/**
 * A delete_message event for one queue: clients without `bulk_message_deletion` get one event
 * per id carrying `message_id`; clients without `empty_topic_name` see the realm's name for the
 * empty topic.
 */
export function finalizeDeleteMessageEvent(event: EngineEvent, queue: EventQueue, notice: Notice): EngineEvent[] {
  const { message_ids: messageIds, ...rest } = event as EngineEvent & { message_ids: number[] };
  const shaped: EngineEvent = { ...rest };
  if (shaped.topic === '' && !queue.capabilities.empty_topic_name && notice.emptyTopicDisplayName !== undefined) {
    shaped.topic = notice.emptyTopicDisplayName;
  }
  if (queue.capabilities.bulk_message_deletion) return [{ ...shaped, message_ids: messageIds }];
  return messageIds.map((id) => ({ ...shaped, message_id: id }));
}
