import { sortedIds } from '../narrow/narrow.ts';
import type { Inbox, InboxRealm } from './inbox.ts';
import { TOPIC_FOLLOWED } from './realm-state.ts';

/** A topic to go to: `n`'s answer. */
export interface TopicPlace {
  channelId: number;
  topic: string;
}

/**
 * Upstream's `n`: the unread topic after the one shown, in the Inbox's order (channels as the
 * sidebar orders them, each one's topics most recent first), wrapping round; from a channel or a
 * topic with nothing unread, that channel's first unread topic, else the next channel's. Null
 * when no other topic has unread messages. Muted topics are not offered, as the Inbox leaves them out.
 */
export function nextUnreadTopic(inbox: Inbox, current: { channelId: number; topic?: string } | null, compareChannels: (a: number, b: number) => number): TopicPlace | null {
  const topics = inbox.channels.flatMap(({ channelId, topics }) => topics.map(({ topic }) => ({ channelId, topic })));
  const isCurrent = (place: TopicPlace): boolean =>
    current?.topic !== undefined && place.channelId === current.channelId && place.topic.toLowerCase() === current.topic.toLowerCase();
  if (current === null) return topics[0] ?? null;
  const at = topics.findIndex(isCurrent);
  if (at >= 0) return topics.length > 1 ? topics[(at + 1) % topics.length] : null;
  return topics.find((place) => compareChannels(place.channelId, current.channelId) >= 0) ?? topics[0] ?? null;
}

/**
 * Upstream's `p`: the DM conversation with unread messages after the one shown, most recently
 * active first, wrapping round; from anywhere else, the most recent. `userIds` as DM narrows
 * hold them (the people besides me). Null when no other DM has unread messages.
 */
export function nextUnreadDm(inbox: Inbox, currentUserIds: readonly number[] | null): number[] | null {
  const key = currentUserIds && sortedIds(currentUserIds);
  const at = inbox.dms.findIndex((dm) => sortedIds(dm.userIds) === key);
  if (at < 0) return inbox.dms[0]?.userIds ?? null;
  return inbox.dms.length > 1 ? inbox.dms[(at + 1) % inbox.dms.length].userIds : null;
}

/** The Inbox's followed topics alone: upstream's `Shift+N` goes to the next of them as `n` goes to any. */
export function followedTopicsOf(inbox: Inbox, realm: InboxRealm): Inbox {
  const channels = inbox.channels
    .map(({ channelId, topics }) => ({ channelId, topics: topics.filter(({ topic }) => realm.topicPolicy(channelId, topic) === TOPIC_FOLLOWED) }))
    .filter(({ topics }) => topics.length > 0);
  return { dms: inbox.dms, channels };
}
