import type { EventQueue } from './event-queues.ts';
import type { EngineEvent } from './event-types.ts';

/**
 * Archiving is a `stream` `update` of `is_archived` for clients with `archived_channels`; the
 * others forget the channel, so they get upstream's `stream` `delete` instead.
 */
export function finalizeStreamEvent(event: EngineEvent, queue: EventQueue): EngineEvent[] {
  if (event.op !== 'update' || event.property !== 'is_archived' || queue.capabilities.archived_channels) return [event];
  const streamId = event.stream_id as number;
  return [{ type: 'stream', op: 'delete', streams: [{ stream_id: streamId }], stream_ids: [streamId] }];
}
