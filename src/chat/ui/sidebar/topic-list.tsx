import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { narrowHash } from '../../narrow/narrow-url.ts';
import { TOPIC_MUTED } from '../../state/realm-state.ts';
import { useChat } from '../chat-context.ts';
import { newestInTopic } from '../messages/message-operations.ts';
import { TopicMenuItems } from '../messages/topic-menu-items.tsx';
import { route } from '../navigation.ts';
import { slugNames } from '../slug-names.ts';
import { openOnRightClick, RowMenu } from './row-menu.tsx';

/** Topics listed before "More topics", as upstream's sidebar lists them. */
const RECENT_TOPICS = 8;

interface Topic {
  name: string;
  max_id: number;
}

/** The open channel's topics, newest first, with unread counts; refetched as its messages come, move or go. */
export function TopicList({ channelId }: { channelId: number }) {
  const { session } = useChat();
  const realm = session.realm;
  const topics = useSignal<Topic[]>([]);
  useEffect(() => {
    session.api.get<{ topics: Topic[] }>(`/users/me/${channelId}/topics`).then(
      (answer) => (topics.value = answer.topics),
      () => undefined,
    );
  }, [channelId, realm.topicChanges.value.get(channelId), session.generation.value]);
  const current = route.value.narrow;
  const openTopic = current.kind === 'channel' && current.channelId === channelId ? current.topic?.toLowerCase() : undefined;
  const showAll = useSignal(false);
  // As upstream's sidebar: the most recent topics, those with unread messages and the open one; the rest on request.
  const unreadKeys = new Set<string>();
  for (const entry of realm.unread.value.entries.values()) if (entry.channelId === channelId && entry.topicKey !== undefined) unreadKeys.add(entry.topicKey);
  const shown = showAll.value
    ? topics.value
    : topics.value.filter((topic, index) => index < RECENT_TOPICS || unreadKeys.has(topic.name.toLowerCase()) || topic.name.toLowerCase() === openTopic);
  const hidden = topics.value.length - shown.length;
  return (
    <ul class="topic-list" aria-label="Topics">
      {shown.map((topic) => {
        const key = topic.name.toLowerCase();
        const count = realm.unread.value.countWhere((entry) => entry.channelId === channelId && entry.topicKey === key);
        const muted = realm.topicPolicy(channelId, topic.name) === TOPIC_MUTED;
        return (
          <TopicItem key={key} channelId={channelId} topic={topic.name} count={count} muted={muted} current={openTopic === key} />
        );
      })}
      {(hidden > 0 || showAll.value) && (
        <li>
          <button type="button" class="more-topics" aria-expanded={showAll.value} onClick={() => (showAll.value = !showAll.value)}>
            {showAll.value ? 'Fewer topics' : `More topics (${hidden})`}
          </button>
        </li>
      )}
    </ul>
  );
}

function TopicItem({ channelId, topic, count, muted, current }: { channelId: number; topic: string; count: number; muted: boolean; current: boolean }) {
  const { session } = useChat();
  const name = topic === '' ? session.realm.emptyTopicName.value : topic;
  const menuOpen = useSignal(false);
  return (
    <li class={`topic-item ${muted ? 'muted' : ''}`}>
      <a
        href={narrowHash({ kind: 'channel', channelId, topic }, slugNames(session))}
        aria-current={current ? 'page' : undefined}
        onContextMenu={(event) => openOnRightClick(event, menuOpen)}
      >
        <span class={`label ${topic === '' ? 'empty-topic' : ''}`}>{name}</span>
        {count > 0 && <span class="count" aria-label={`${count} unread`}>{count}</span>}
      </a>
      {/* Upstream's topic menu; a listed topic has messages, the newest fetched when a move needs it. */}
      <RowMenu label={`Topic options for ${name}`} open={menuOpen}>
        <TopicMenuItems channelId={channelId} topic={topic} newest={() => newestInTopic(session, channelId, topic)} full />
      </RowMenu>
    </li>
  );
}
