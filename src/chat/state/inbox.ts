import type { Subscription } from '../api/wire-types.ts';
import { TOPIC_FOLLOWED, TOPIC_MUTED, TOPIC_UNMUTED } from './realm-state.ts';
import type { UnreadEntry, UnreadIndex } from './unread-index.ts';

/** One conversation with unread messages: a topic or a DM. */
export interface InboxConversation {
  /** The topic as written, or the DM's participants besides me (me alone for notes to self). */
  topic?: string;
  userIds?: number[];
  count: number;
  mentioned: boolean;
  /** The newest unread message: the Inbox lists the most recently active first. */
  newestId: number;
}

export interface InboxChannel {
  channelId: number;
  count: number;
  mentioned: boolean;
  topics: InboxConversation[];
}

export interface Inbox {
  dms: InboxConversation[];
  channels: InboxChannel[];
}

/** What the Inbox needs to know of the realm to hide what the user muted. */
export interface InboxRealm {
  subscriptions: ReadonlyMap<number, Subscription>;
  topicPolicy(channelId: number, topic: string): number;
}

/**
 * Upstream's Inbox: every conversation with unread messages, DMs first, then channels in the
 * sidebar's order (pinned first, then by name) with their topics, most recent first. As upstream,
 * a muted topic is left out, and so is a muted channel's topic unless it is unmuted or followed.
 */
export function buildInbox(unread: UnreadIndex, realm: InboxRealm): Inbox {
  const dms = new Map<string, InboxConversation>();
  const channels = new Map<number, Map<string, InboxConversation>>();
  for (const [id, entry] of unread.entries) {
    if (entry.dmKey !== undefined) {
      const dm = dms.get(entry.dmKey) ?? { userIds: entry.dmKey.split(',').map(Number), count: 0, mentioned: false, newestId: 0 };
      dms.set(entry.dmKey, tally(dm, id, entry));
    } else if (entry.channelId !== undefined && entry.topicKey !== undefined && topicShown(realm, entry.channelId, entry.topic ?? entry.topicKey)) {
      const topics = channels.get(entry.channelId) ?? new Map<string, InboxConversation>();
      channels.set(entry.channelId, topics);
      const topic = topics.get(entry.topicKey) ?? { topic: entry.topic ?? entry.topicKey, count: 0, mentioned: false, newestId: 0 };
      topics.set(entry.topicKey, tally(topic, id, entry));
    }
  }
  const newestFirst = (a: InboxConversation, b: InboxConversation): number => b.newestId - a.newestId;
  return {
    dms: [...dms.values()].sort(newestFirst),
    channels: [...channels]
      .map(([channelId, topics]) => {
        const list = [...topics.values()].sort(newestFirst);
        return { channelId, topics: list, count: sum(list), mentioned: list.some((topic) => topic.mentioned) };
      })
      .sort((a, b) => channelOrder(realm, a.channelId, b.channelId)),
  };
}

function tally(conversation: InboxConversation, id: number, entry: UnreadEntry): InboxConversation {
  conversation.count += 1;
  conversation.mentioned ||= entry.mentioned;
  conversation.newestId = Math.max(conversation.newestId, id);
  return conversation;
}

function sum(conversations: readonly InboxConversation[]): number {
  return conversations.reduce((total, conversation) => total + conversation.count, 0);
}

/** Whether a topic shows in the Inbox and Recent conversations: upstream leaves out muted topics, and a muted channel's unless unmuted or followed. */
export function topicShown(realm: InboxRealm, channelId: number, topic: string): boolean {
  const policy = realm.topicPolicy(channelId, topic);
  if (policy === TOPIC_MUTED) return false;
  const channelMuted = realm.subscriptions.get(channelId)?.is_muted ?? false;
  return !channelMuted || policy === TOPIC_UNMUTED || policy === TOPIC_FOLLOWED;
}

function channelOrder(realm: InboxRealm, a: number, b: number): number {
  const subA = realm.subscriptions.get(a);
  const subB = realm.subscriptions.get(b);
  const pinned = Number(subB?.pin_to_top ?? false) - Number(subA?.pin_to_top ?? false);
  return pinned || (subA?.name ?? '').localeCompare(subB?.name ?? '');
}
