import type { EventQueue } from './event-queues.ts';
import type { EngineEvent, Notice } from './event-types.ts';

/**
 * How a `message` notice renders its message for one receiving queue: the message object
 * depends on the viewer (which emails are real, a 1:1 conversation's recipient_id) and on the
 * queue's options (HTML or Markdown, empty-topic support).
 */
export interface MessageNotice {
  senderId: number;
  view(viewerId: number, applyMarkdown: boolean, allowEmptyTopicName: boolean): Record<string, unknown>;
  /** The sending client's queue and local id, echoed back for local echo. */
  senderQueueId?: string;
  localId?: string;
}

export function finalizeMessageEvent(event: EngineEvent, queue: EventQueue, notice: Notice): EngineEvent[] {
  const message = notice.message;
  if (!message) return [event];
  const shaped: EngineEvent = {
    type: 'message',
    message: message.view(queue.userId, queue.applyMarkdown, queue.capabilities.empty_topic_name),
    flags: (event.flags as string[] | undefined) ?? [],
  };
  if (queue.narrow && !queue.narrow(shaped)) return [];
  if (message.localId !== undefined && queue.id === message.senderQueueId && queue.userId === message.senderId) {
    shaped.local_message_id = message.localId;
  }
  return [shaped];
}
