import type { Message } from '../api/wire-types.ts';
import { conversationKey, dmKeyOf } from './unread-index.ts';

/** One row of Recent conversations: a topic or a DM, as its newest loaded message shows it. */
export type RecentConversation = {
  /** The unread index's {@link conversationKey}. */
  key: string;
  newest: Message;
  /** Who wrote in it, most recent first. */
  senderIds: number[];
  /** Whether I wrote in it (upstream's "Participated" filter). */
  participated: boolean;
} & ({ channelId: number; topic: string } | { userIds: number[] });

/**
 * Upstream's Recent conversations: the loaded messages grouped by conversation, the one with
 * the newest message first. The topic is named as its newest message writes it.
 */
export function recentConversations(messages: readonly Message[], me: number): RecentConversation[] {
  const byKey = new Map<string, RecentConversation>();
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    const key = conversationKey({ message, me });
    let conversation = byKey.get(key);
    if (!conversation) {
      conversation =
        message.type === 'stream' && message.stream_id !== undefined
          ? { key, channelId: message.stream_id, topic: message.subject, newest: message, senderIds: [], participated: false }
          : { key, userIds: dmKeyOf(message, me).split(',').map(Number), newest: message, senderIds: [], participated: false };
      byKey.set(key, conversation);
    }
    if (!conversation.senderIds.includes(message.sender_id)) conversation.senderIds.push(message.sender_id);
    conversation.participated ||= message.sender_id === me;
  }
  return [...byKey.values()];
}
