import type { EventQueue } from './event-queue.ts';
import type { EngineEvent } from './event-types.ts';

/**
 * Legacy settings events reach only queues without `user_settings_object`, whose clients do not
 * read `user_settings` events.
 */
export function finalizeLegacySettingsEvent(event: EngineEvent, queue: EventQueue): EngineEvent[] {
  return queue.capabilities.user_settings_object ? [] : [event];
}
