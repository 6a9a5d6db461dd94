import { messageToWire } from '../wire/message-wire.ts';
import type { EventQueue } from './event-queue.ts';
import type { EngineEvent, MessageNotice, Notice } from './event-types.ts';
import { matchesQueueNarrow } from './queue-narrow.ts';

/** Renderings already made for a notice, by viewer and options: one per kind of client. */
const renderings = new WeakMap<MessageNotice, Map<string, Record<string, unknown>>>();

function render(message: MessageNotice, queue: EventQueue): Record<string, unknown> {
  const allowEmptyTopicName = queue.capabilities.empty_topic_name;
  const key = `${queue.userId}:${queue.applyMarkdown}:${allowEmptyTopicName}`;
  let byKey = renderings.get(message);
  if (!byKey) renderings.set(message, (byKey = new Map()));
  let wire = byKey.get(key);
  if (!wire) {
    const viewer = message.directory.users.get(queue.userId) ?? null;
    wire = messageToWire(message.row, [], message.directory, { viewer, applyMarkdown: queue.applyMarkdown, allowEmptyTopicName });
    byKey.set(key, wire);
  }
  return wire;
}

export function finalizeMessageEvent(event: EngineEvent, queue: EventQueue, notice: Notice): EngineEvent[] {
  const message = notice.message;
  if (!message) return [event];
  const shaped: EngineEvent = {
    type: 'message',
    message: render(message, queue),
    flags: (event.flags as string[] | undefined) ?? [],
  };
  if (queue.narrow.length > 0 && !matchesQueueNarrow(queue.narrow, shaped)) return [];
  if (message.localId !== undefined && queue.id === message.senderQueueId && queue.userId === message.row.sender_id) {
    shaped.local_message_id = message.localId;
  }
  return [shaped];
}
