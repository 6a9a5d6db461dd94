import type { EventQueue } from './event-queue.ts';
import type { EngineEvent, Notice } from './event-types.ts';
import { streamDeleteEvent } from '../wire/channel-wire.ts';

/**
 * Archiving is a `stream` `update` of `is_archived` for clients with `archived_channels`; the
 * others forget the channel, so they get upstream's `stream` `delete` with its object instead.
 */
export function finalizeStreamEvent(event: EngineEvent, queue: EventQueue, notice: Notice): EngineEvent[] {
  if (!notice.archivedChannel || queue.capabilities.archived_channels) return [event];
  return [streamDeleteEvent([notice.archivedChannel])];
}
