import type { EventQueue } from './event-queue.ts';
import type { EngineEvent, Notice } from './event-types.ts';
import { finalizeMessageEvent } from './message-event.ts';
import { finalizeDeleteMessageEvent } from './delete-message-event.ts';
import { finalizeScheduledMessagesEvent } from './scheduled-messages-event.ts';
import { finalizeUpdateMessageEvent, finalizeUpdateMessageFlagsEvent } from './update-message-event.ts';
import { finalizeRealmLinkifiersEvent } from './realm-linkifiers-event.ts';
import { finalizeTypingEvent } from './typing-event.ts';
import { finalizeMutedTopicsEvent, finalizeUserTopicEvent } from './user-topic-event.ts';
import { finalizePresenceEvent } from './presence-event.ts';
import { finalizeStreamEvent } from './stream-event.ts';
import { finalizeSubscriptionEvent } from './subscription-event.ts';
import { finalizeLegacySettingsEvent } from './legacy-settings-event.ts';

/**
 * Shapes a canonical event for one queue: the queue's `event_types` filter, and per-type
 * reshaping for the queue's options and capabilities. Returns the events to push (none, one,
 * or several, e.g. one delete_message per id for clients without bulk deletion).
 */
export type Finalizer = (event: EngineEvent, queue: EventQueue, notice: Notice) => EngineEvent[];

/** Event types whose payload depends on the receiving queue; all others go out unchanged. */
const FINALIZERS: Record<string, Finalizer> = {
  message: finalizeMessageEvent,
  delete_message: finalizeDeleteMessageEvent,
  update_message: finalizeUpdateMessageEvent,
  update_message_flags: finalizeUpdateMessageFlagsEvent,
  realm_linkifiers: finalizeRealmLinkifiersEvent,
  typing: finalizeTypingEvent,
  user_topic: finalizeUserTopicEvent,
  muted_topics: finalizeMutedTopicsEvent,
  presence: finalizePresenceEvent,
  scheduled_messages: finalizeScheduledMessagesEvent,
  subscription: finalizeSubscriptionEvent,
  stream: finalizeStreamEvent,
  update_display_settings: finalizeLegacySettingsEvent,
  update_global_notifications: finalizeLegacySettingsEvent,
};

export function finalizeForQueue(notice: Notice, queue: EventQueue): EngineEvent[] {
  const { event } = notice;
  if (queue.eventTypes && !queue.eventTypes.has(event.type)) return [];
  const extra = notice.perUser?.get(queue.userId);
  const base = extra ? { ...event, ...extra } : event;
  if (queue.canonical) return [base];
  const finalizer = FINALIZERS[event.type];
  return finalizer ? finalizer(base, queue, notice) : [base];
}
