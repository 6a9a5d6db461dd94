import type { Message, UnreadMessages } from '../api/wire-types.ts';
import type { ConversationNarrow } from '../narrow/narrow.ts';

/** Where an unread message lives: enough to count it per channel, topic and conversation. */
export interface UnreadEntry {
  channelId?: number;
  /** Lower-cased: topics match case-insensitively. */
  topicKey?: string;
  /** The topic as written (the Inbox shows it). */
  topic?: string;
  /** Sorted participant ids besides me (me alone for a note to self). */
  dmKey?: string;
  mentioned: boolean;
}

/**
 * The logged-in user's unread messages, from /register's `unread_msgs` and kept by events.
 * Immutable: each change makes a new index, so a signal holding it notifies its readers.
 */
export class UnreadIndex {
  readonly entries: ReadonlyMap<number, UnreadEntry>;

  constructor(entries: ReadonlyMap<number, UnreadEntry> = new Map()) {
    this.entries = entries;
  }

  static fromRegister(unread: UnreadMessages, me: number): UnreadIndex {
    const entries = new Map<number, UnreadEntry>();
    const mentions = new Set(unread.mentions);
    for (const topic of unread.streams) {
      for (const id of topic.unread_message_ids) {
        entries.set(id, { channelId: topic.stream_id, topicKey: topic.topic.toLowerCase(), topic: topic.topic, mentioned: mentions.has(id) });
      }
    }
    for (const dm of unread.pms) {
      for (const id of dm.unread_message_ids) entries.set(id, { dmKey: String(dm.other_user_id), mentioned: mentions.has(id) });
    }
    for (const group of unread.huddles) {
      const others = group.user_ids_string.split(',').map(Number).filter((id) => id !== me);
      for (const id of group.unread_message_ids) entries.set(id, { dmKey: others.join(','), mentioned: mentions.has(id) });
    }
    return new UnreadIndex(entries);
  }

  get count(): number {
    return this.entries.size;
  }

  has(id: number): boolean {
    return this.entries.has(id);
  }

  with(message: Message, me: number): UnreadIndex {
    return this.withEntries([[message.id, entryOf(message, me)]]);
  }

  withEntries(added: Iterable<[number, UnreadEntry]>): UnreadIndex {
    const entries = new Map(this.entries);
    for (const [id, entry] of added) entries.set(id, entry);
    return new UnreadIndex(entries);
  }

  without(ids: Iterable<number>): UnreadIndex {
    const entries = new Map(this.entries);
    let changed = false;
    for (const id of ids) changed = entries.delete(id) || changed;
    return changed ? new UnreadIndex(entries) : this;
  }

  /** After a move: the messages now sit in another channel or topic. */
  moved(ids: Iterable<number>, channelId: number | undefined, topic: string | undefined): UnreadIndex {
    const entries = new Map(this.entries);
    for (const id of ids) {
      const entry = entries.get(id);
      if (!entry || entry.channelId === undefined) continue;
      entries.set(id, { ...entry, channelId: channelId ?? entry.channelId, topicKey: topic?.toLowerCase() ?? entry.topicKey, topic: topic ?? entry.topic });
    }
    return new UnreadIndex(entries);
  }

  /** Unread messages per conversation, by {@link conversationKey}. */
  countsByConversation(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const entry of this.entries.values()) {
      const key = conversationKey(entry);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }

  countWhere(test: (entry: UnreadEntry) => boolean): number {
    let count = 0;
    for (const entry of this.entries.values()) if (test(entry)) count += 1;
    return count;
  }
}

export function dmKeyOf(message: Message, me: number): string {
  const ids = Array.isArray(message.display_recipient) ? message.display_recipient.map((user) => user.id) : [];
  const others = ids.filter((id) => id !== me).sort((a, b) => a - b);
  return (others.length > 0 ? others : [me]).join(',');
}

/** The conversation a message belongs to, as a narrow: its topic, or its DM. */
export function conversationOf(message: Message, me: number): ConversationNarrow {
  return message.type === 'stream' && message.stream_id !== undefined
    ? { kind: 'channel', channelId: message.stream_id, topic: message.subject }
    : { kind: 'dm', userIds: dmKeyOf(message, me).split(',').map(Number) };
}

/** A conversation's key (`topic:{channel}:{topic, lower-cased}` or `dm:{ids}`), from an entry or a message. */
export function conversationKey(where: UnreadEntry | { message: Message; me: number }): string {
  const entry = 'message' in where ? entryOf(where.message, where.me) : where;
  return entry.dmKey !== undefined ? `dm:${entry.dmKey}` : `topic:${entry.channelId}:${entry.topicKey}`;
}

function entryOf(message: Message, me: number): UnreadEntry {
  const mentioned = message.flags.includes('mentioned') || message.flags.includes('wildcard_mentioned');
  if (message.type === 'stream') return { channelId: message.stream_id, topicKey: message.subject.toLowerCase(), topic: message.subject, mentioned };
  return { dmKey: dmKeyOf(message, me), mentioned };
}
