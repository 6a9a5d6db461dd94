import type { RealmDirectory } from '../directory/realm-directory.ts';
import { messageToWire } from '../wire/message-wire.ts';
import type { MessageRow } from '../storage/rows.ts';
import type { EventQueue } from './event-queues.ts';
import type { EngineEvent, Notice } from './event-types.ts';
import { matchesQueueNarrow } from './queue-narrow.ts';

/**
 * A `message` notice's message, as data: the stored row and the realm directory the sending
 * transaction read. Delivery renders it per receiving queue, as upstream's event queue
 * finalizes one message dict per client: the object depends on the viewer (which emails are
 * real, a 1:1 conversation's recipient_id) and on the queue's options (HTML or Markdown,
 * empty-topic support).
 */
export interface MessageNotice {
  row: MessageRow;
  directory: RealmDirectory;
  /** The sending client's queue and local id, echoed back for local echo. */
  senderQueueId?: string;
  localId?: string;
}

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
