import { useChat } from '../chat-context.ts';
import { RESOLVED_TOPIC_PREFIX, toggleTopicResolved } from '../messages/message-operations.ts';

/**
 * Writing into a resolved topic: upstream's warning, with its way to unresolve the topic first
 * (the box, and the view if it shows that topic, follow the new name).
 */
export function ResolvedTopicNote() {
  const { session, composer } = useChat();
  const channelId = composer.channelId.value;
  const topic = composer.topic.value.trim();
  if (composer.mode.value !== 'channel' || channelId === null || !topic.startsWith(RESOLVED_TOPIC_PREFIX) || !composer.content.value.trim()) return null;
  // Upstream's words; the way to unresolve only for those the realm lets resolve topics.
  if (!session.realm.may('can_resolve_topics_group')) {
    return (
      <p class="compose-note" role="status">
        You are sending a message to a resolved topic.
      </p>
    );
  }
  return (
    <p class="compose-note" role="status">
      You are sending a message to a resolved topic. You can send as-is or unresolve the topic first.
      <button
        type="button"
        onClick={() => void toggleTopicResolved(session, composer, channelId, topic)}
      >
        Unresolve topic
      </button>
    </p>
  );
}
