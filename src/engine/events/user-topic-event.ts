import type { EventQueue } from './event-queue.ts';
import type { EngineEvent, Notice } from './event-types.ts';

function shownTopic(topic: string, queue: EventQueue, notice: Notice): string {
  return topic === '' && !queue.capabilities.empty_topic_name ? (notice.emptyTopicDisplayName ?? topic) : topic;
}

/** `user_topic`: the empty topic under the realm's display name for clients without `empty_topic_name`. */
export function finalizeUserTopicEvent(event: EngineEvent, queue: EventQueue, notice: Notice): EngineEvent[] {
  return [{ ...event, topic_name: shownTopic(event.topic_name as string, queue, notice) }];
}

/**
 * The legacy `muted_topics` list is suppressed for clients that asked for `user_topic`, which
 * supersedes it (upstream lets clients request both and get one copy on any server version).
 */
export function finalizeMutedTopicsEvent(event: EngineEvent, queue: EventQueue, notice: Notice): EngineEvent[] {
  if (queue.eventTypes?.has('user_topic')) return [];
  const entries = event.muted_topics as Array<[string, string, number]>;
  return [{ ...event, muted_topics: entries.map(([channel, topic, time]) => [channel, shownTopic(topic, queue, notice), time]) }];
}
