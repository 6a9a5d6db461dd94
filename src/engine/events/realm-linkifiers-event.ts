import type { EventQueue } from './event-queue.ts';
import type { EngineEvent } from './event-types.ts';

/** Linkifiers carry RFC 6570 templates: clients that cannot read them get no update at all (as upstream). */
export function finalizeRealmLinkifiersEvent(event: EngineEvent, queue: EventQueue): EngineEvent[] {
  return queue.capabilities.linkifier_url_template ? [event] : [];
}
