import type { EventQueue } from './event-queue.ts';
import type { EngineEvent } from './event-types.ts';

/**
 * A `presence` event carries both formats; each queue gets one: the modern `presences` map with
 * `simplified_presence_events`, else the legacy fields — without the deprecated `email` for
 * `slim_presence` queues.
 */
export function finalizePresenceEvent(event: EngineEvent, queue: EventQueue): EngineEvent[] {
  if (queue.capabilities.simplified_presence_events) return [{ type: 'presence', presences: event.presences }];
  const legacy: EngineEvent = {
    type: 'presence',
    user_id: event.user_id,
    server_timestamp: event.server_timestamp,
    presence: event.presence,
  };
  if (!queue.slimPresence) legacy.email = event.email;
  return [legacy];
}
