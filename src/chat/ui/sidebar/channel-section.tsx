import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { Subscription } from '../../api/wire-types.ts';
import { narrowHash } from '../../narrow/narrow-url.ts';
import { TOPIC_MUTED } from '../../state/realm-state.ts';
import { useChat } from '../chat-context.ts';
import { slugNames } from '../slug-names.ts';
import { route } from '../navigation.ts';
import { ChannelIcon } from '../channel-icon.tsx';
import { ChannelFilter, channelsMatching } from './channel-filter.tsx';
import { sidebarChannelGroups } from './sidebar-channel-order.ts';

/** Subscribed channels: pinned first, then by channel folder, each with its unread count; the open channel lists its topics. A filter narrows them by name. */
export function ChannelSection() {
  const { session } = useChat();
  const filter = useSignal('');
  const groups = channelsMatching(sidebarChannelGroups(session.realm), filter.value);
  const typed = filter.value.trim();
  const current = route.value.narrow;
  const openChannel = current.kind === 'channel' ? current.channelId : null;

  return (
    <div class="channel-section">
      <ChannelFilter text={filter} first={groups[0]?.channels[0]} />
      {groups.map((group) => (
        <section key={group.key} class="channel-folder" aria-label={group.title}>
          <h3>{group.title}</h3>
          <ul>
            {group.channels.map((sub) => (
              <ChannelItem key={sub.stream_id} sub={sub} open={openChannel === sub.stream_id} />
            ))}
          </ul>
        </section>
      ))}
      {groups.length === 0 && typed !== '' && <p class="hint channel-filter-empty">No channels match “{typed}”.</p>}
    </div>
  );
}

function ChannelItem({ sub, open }: { sub: Subscription; open: boolean }) {
  const { session } = useChat();
  const realm = session.realm;
  const names = slugNames(session);
  const count = realm.unread.value.countWhere((entry) => entry.channelId === sub.stream_id && realm.topicPolicy(sub.stream_id, entry.topicKey ?? '') !== TOPIC_MUTED);
  const current = route.value.narrow;
  const selected = current.kind === 'channel' && current.channelId === sub.stream_id && current.topic === undefined;
  return (
    <li class={`channel-item ${sub.is_muted ? 'muted' : ''}`}>
      <a href={narrowHash({ kind: 'channel', channelId: sub.stream_id }, names)} aria-current={selected ? 'page' : undefined}>
        <span class="channel-swatch" style={{ background: sub.color }} aria-hidden="true">
          <ChannelIcon private={sub.invite_only} />
        </span>
        <span class="label">{sub.name}</span>
        {sub.is_muted && <span class="visually-hidden">(muted)</span>}
        {count > 0 && <span class="count" aria-label={`${count} unread`}>{count}</span>}
      </a>
      {open && <TopicList channelId={sub.stream_id} />}
    </li>
  );
}

/** Topics listed before "More topics", as upstream's sidebar lists them. */
const RECENT_TOPICS = 8;

interface Topic {
  name: string;
  max_id: number;
}

/** The open channel's topics, newest first, with unread counts; refetched as its messages come, move or go. */
function TopicList({ channelId }: { channelId: number }) {
  const { session } = useChat();
  const realm = session.realm;
  const names = slugNames(session);
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
          <li key={key} class={muted ? 'muted' : ''}>
            <a href={narrowHash({ kind: 'channel', channelId, topic: topic.name }, names)} aria-current={openTopic === key ? 'page' : undefined}>
              <span class={`label ${topic.name === '' ? 'empty-topic' : ''}`}>{topic.name === '' ? realm.emptyTopicName.value : topic.name}</span>
              {count > 0 && <span class="count" aria-label={`${count} unread`}>{count}</span>}
            </a>
          </li>
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
