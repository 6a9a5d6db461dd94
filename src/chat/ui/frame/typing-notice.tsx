import { useEffect } from 'preact/hooks';
import type { Narrow } from '../../narrow/narrow.ts';
import { useChat } from '../chat-context.ts';

/** "X is typing…" for the conversation on screen; entries lapse after the server's expiry period. */
export function TypingNotice({ narrow }: { narrow: Narrow }) {
  const { session } = useChat();
  const realm = session.realm;
  const conversation =
    narrow.kind === 'channel' && narrow.topic !== undefined
      ? `topic:${narrow.channelId}:${narrow.topic.toLowerCase()}`
      : narrow.kind === 'dm'
        ? `dm:${narrow.userIds.join(',')}`
        : null;
  const entries = realm.typing.value;
  useEffect(() => {
    if (entries.length === 0) return;
    const next = Math.min(...entries.map((entry) => entry.expiresAt));
    const timer = setTimeout(() => (realm.typing.value = realm.typing.value.filter((entry) => entry.expiresAt > Date.now())), Math.max(0, next - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [entries]);
  const typing = entries.filter((entry) => entry.conversation === conversation).map((entry) => realm.userName(entry.userId));
  return (
    <p class="typing-notice" aria-live="polite">
      {typing.length === 0 ? '' : `${typing.join(', ')} ${typing.length === 1 ? 'is' : 'are'} typing…`}
    </p>
  );
}
