import type { Subscription } from '../api/wire-types.ts';
import { type RealmState, TOPIC_FOLLOWED, TOPIC_MUTED, TOPIC_UNMUTED } from './realm-state.ts';
import type { UnreadEntry, UnreadIndex } from './unread-index.ts';

/** A conversation's (or a group's) unread messages: how many, whether one mentions me, the newest. */
export interface Tally {
  count: number;
  mentioned: boolean;
  /** The Inbox lists the most recently active first. */
  newestId: number;
}

/** A DM with unread messages: its participants besides me (me alone for notes to self). */
export interface InboxDm extends Tally {
  userIds: number[];
}

/** A topic with unread messages, named as its newest arrival or move writes it. */
export interface InboxTopic extends Tally {
  topic: string;
}

export interface InboxChannel {
  channelId: number;
  topics: InboxTopic[];
}

export interface Inbox {
  dms: InboxDm[];
  channels: InboxChannel[];
}

/** Several conversations' tallies summed: a channel's, the DMs'. */
export function tallyOf(conversations: readonly Tally[]): Tally {
  return {
    count: conversations.reduce((total, conversation) => total + conversation.count, 0),
    mentioned: conversations.some((conversation) => conversation.mentioned),
    newestId: conversations.reduce((newest, conversation) => Math.max(newest, conversation.newestId), 0),
  };
}

/** What the Inbox needs to know of the realm to hide what the user muted. */
export interface InboxRealm {
  subscriptions: ReadonlyMap<number, Subscription>;
  topicPolicy(channelId: number, topic: string): number;
}

/** The realm's mutes as they stand, for the Inbox, Recent conversations and `n`. */
export function inboxRealmOf(realm: Pick<RealmState, 'subscriptions' | 'topicPolicy'>): InboxRealm {
  return { subscriptions: realm.subscriptions.value, topicPolicy: (id, topic) => realm.topicPolicy(id, topic) };
}

/**
 * Upstream's Inbox: every conversation with unread messages, DMs first, then channels in the
 * sidebar's order (pinned first, then by name) with their topics, most recent first. As upstream,
 * a muted topic is left out, and so is a muted channel's topic unless it is unmuted or followed.
 */
export function buildInbox(unread: UnreadIndex, realm: InboxRealm): Inbox {
  const dms = new Map<string, InboxDm>();
  const channels = new Map<number, Map<string, InboxTopic>>();
  for (const [id, entry] of unread.entries) {
    if (entry.dmKey !== undefined) {
      const dm = dms.get(entry.dmKey) ?? { userIds: entry.dmKey.split(',').map(Number), count: 0, mentioned: false, newestId: 0 };
      dms.set(entry.dmKey, tally(dm, id, entry));
    } else if (entry.channelId !== undefined && entry.topicKey !== undefined && topicShown(realm, entry.channelId, entry.topic ?? entry.topicKey)) {
      const topics = channels.get(entry.channelId) ?? new Map<string, InboxTopic>();
      channels.set(entry.channelId, topics);
      const topic = topics.get(entry.topicKey) ?? { topic: entry.topic ?? entry.topicKey, count: 0, mentioned: false, newestId: 0 };
      topics.set(entry.topicKey, tally(topic, id, entry));
    }
  }
  const newestFirst = (a: Tally, b: Tally): number => b.newestId - a.newestId;
  return {
    dms: [...dms.values()].sort(newestFirst),
    channels: [...channels]
      .map(([channelId, topics]) => ({ channelId, topics: [...topics.values()].sort(newestFirst) }))
      .sort((a, b) => channelOrder(realm, a.channelId, b.channelId)),
  };
}

function tally<T extends Tally>(conversation: T, id: number, entry: UnreadEntry): T {
  conversation.count += 1;
  conversation.mentioned ||= entry.mentioned;
  conversation.newestId = Math.max(conversation.newestId, id);
  return conversation;
}

/** Whether a topic shows in the Inbox and Recent conversations: upstream leaves out muted topics, and a muted channel's unless unmuted or followed. */
export function topicShown(realm: InboxRealm, channelId: number, topic: string): boolean {
  const policy = realm.topicPolicy(channelId, topic);
  if (policy === TOPIC_MUTED) return false;
  const channelMuted = realm.subscriptions.get(channelId)?.is_muted ?? false;
  return !channelMuted || policy === TOPIC_UNMUTED || policy === TOPIC_FOLLOWED;
}

/** The sidebar's order of two channels: pinned first, then by name. */
export function channelOrder(realm: InboxRealm, a: number, b: number): number {
  const subA = realm.subscriptions.get(a);
  const subB = realm.subscriptions.get(b);
  const pinned = Number(subB?.pin_to_top ?? false) - Number(subA?.pin_to_top ?? false);
  return pinned || (subA?.name ?? '').localeCompare(subB?.name ?? '');
}
