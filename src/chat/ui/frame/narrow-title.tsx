import { useSignal } from '@preact/signals';
import { type Narrow, narrowKey, reactionsNarrow, termsQuery } from '../../narrow/narrow.ts';
import { type RealmState, TOPIC_FOLLOWED, TOPIC_MUTED } from '../../state/realm-state.ts';
import { useChat } from '../chat-context.ts';
import { messageHtml } from '../message-html.ts';
import { markNarrowRead, RESOLVED_TOPIC_PREFIX, setTopicPolicy, toggleTopicResolved, unreadInNarrow } from '../messages/message-operations.ts';
import { attempt } from '../notices.ts';
import { ChannelSettings } from '../panels/channel-settings.tsx';
import { termNames } from '../slug-names.ts';
import { TopicMenu } from './topic-menu.tsx';
import { Icon, type IconName } from '../icons.tsx';

/** What a narrow is called: its heading, and the page's title. */
export function narrowName(realm: RealmState, narrow: Narrow): string {
  switch (narrow.kind) {
    case 'all':
      return 'Combined feed';
    case 'starred':
      return 'Starred messages';
    case 'mentioned':
      return 'Mentions';
    case 'search':
      return `Search: ${narrow.query}`;
    case 'dm':
      return narrow.userIds.length === 1 && narrow.userIds[0] === realm.me ? 'Messages with yourself' : `You and ${narrow.userIds.map((id) => realm.userName(id)).join(', ')}`;
    case 'channel': {
      const channel = `#${realm.channelName(narrow.channelId) ?? narrow.channelId}`;
      return narrow.topic === undefined ? channel : `${channel} › ${narrow.topic === '' ? realm.emptyTopicName.value : narrow.topic}`;
    }
    case 'terms': {
      // Upstream's names for the views its links reach; any other combination as its search.
      if (narrowKey(narrow) === narrowKey(reactionsNarrow(realm.me))) return 'Reactions';
      const [only] = narrow.terms;
      if (narrow.terms.length === 1 && !only.negated) {
        if (only.operator === 'is' && (only.operand === 'dm' || only.operand === 'private')) return 'Direct message feed';
        if (only.operator === 'is' && only.operand === 'unread') return 'Unread messages';
        if (only.operator === 'sender' && typeof only.operand === 'number') return `Messages sent by ${realm.userName(only.operand)}`;
      }
      return `Search: ${termsQuery(narrow.terms, termNames(realm))}`;
    }
  }
}

/** The heading above the messages: what is being read, with the open topic's mute toggle and the channel's description. */
export function NarrowTitle({ narrow }: { narrow: Narrow }) {
  const { session, composer } = useChat();
  const realm = session.realm;
  const title = narrowName(realm, narrow);
  const settingsOpen = useSignal(false);
  const detail = narrow.kind === 'channel' && narrow.topic === undefined ? realm.channels.value.get(narrow.channelId)?.rendered_description || null : null;
  const inNarrow = unreadInNarrow(session, narrow);
  const unreadHere = inNarrow ? realm.unread.value.countWhere(inNarrow) : 0;
  const topicPolicy = narrow.kind === 'channel' && narrow.topic !== undefined ? realm.topicPolicy(narrow.channelId, narrow.topic) : null;
  // The open topic's newest loaded message: what its menu's moves name it by; none yet, nothing to resolve.
  const topicMessage = narrow.kind === 'channel' && narrow.topic !== undefined ? session.list(narrow).messages.value.at(-1) : undefined;
  // A channel read without being subscribed (its history, as upstream's web app shows it): one button to join.
  const unsubscribed = narrow.kind === 'channel' && !realm.subscriptions.value.has(narrow.channelId) ? realm.channels.value.get(narrow.channelId) : undefined;
  return (
    <header class="narrow-title">
      <h1>{title}</h1>
      {detail && <div class="narrow-detail rendered-description" dangerouslySetInnerHTML={{ __html: messageHtml(detail, session.api.server) }} />}
      {unsubscribed && realm.maySubscribe(unsubscribed) && (
        <button
          type="button"
          class="small primary"
          aria-label={`Subscribe to ${unsubscribed.name}`}
          onClick={() => {
            // The button goes once subscribed: the focus moves on first, to writing in the channel joined.
            composer.focusRequest.value += 1;
            void attempt('Could not subscribe', () => session.api.post('/users/me/subscriptions', { subscriptions: [{ name: unsubscribed.name }] }));
          }}
        >
          Subscribe
        </button>
      )}
      {narrow.kind === 'channel' && narrow.topic === undefined && realm.isAdmin.value && realm.channels.value.has(narrow.channelId) && (
        <button type="button" class="small" onClick={() => (settingsOpen.value = true)}>
          Channel settings
        </button>
      )}
      {settingsOpen.value && narrow.kind === 'channel' && <ChannelSettings channelId={narrow.channelId} onClose={() => (settingsOpen.value = false)} />}
      {unreadHere > 0 && (
        <button type="button" class="small with-icon" title={`Mark as read (${unreadHere} unread)`} onClick={() => void markNarrowRead(session, narrow)}>
          <Icon name="read" />
          <span class="button-text">Mark as read</span>
        </button>
      )}
      {narrow.kind === 'channel' && narrow.topic !== undefined && (
        <>
          <TopicPolicyToggle channelId={narrow.channelId} topic={narrow.topic} policy={TOPIC_MUTED} current={topicPolicy} labels={['Mute topic', 'Unmute topic']} icon="mute" />
          {/* Upstream's Follow: the topic's messages count as if in an unmuted channel, and `is:followed` finds them. */}
          <TopicPolicyToggle channelId={narrow.channelId} topic={narrow.topic} policy={TOPIC_FOLLOWED} current={topicPolicy} labels={['Follow topic', 'Unfollow topic']} icon="follow" />
        </>
      )}
      {narrow.kind === 'channel' && narrow.topic !== undefined && narrow.topic !== '' && realm.may('can_resolve_topics_group') && topicMessage && (
        <button
          type="button"
          class="small with-icon"
          title={narrow.topic.startsWith(RESOLVED_TOPIC_PREFIX) ? 'Mark as unresolved' : 'Mark as resolved'}
          onClick={() => void toggleTopicResolved(session, composer, narrow.channelId, narrow.topic!)}
        >
          <Icon name="resolve" />
          <span class="button-text">{narrow.topic.startsWith(RESOLVED_TOPIC_PREFIX) ? 'Mark as unresolved' : 'Mark as resolved'}</span>
        </button>
      )}
      {narrow.kind === 'channel' && narrow.topic !== undefined && <TopicMenu channelId={narrow.channelId} topic={narrow.topic} newest={topicMessage} />}
    </header>
  );
}

interface PolicyToggleProps {
  channelId: number;
  topic: string;
  /** The visibility policy this button turns on, and off again (back to the channel's default). */
  policy: number;
  current: number | null;
  labels: [off: string, on: string];
  icon: IconName;
}

/** A topic's visibility policy (muted, followed) as a pressed/unpressed button. */
function TopicPolicyToggle({ channelId, topic, policy, current, labels, icon }: PolicyToggleProps) {
  const { session } = useChat();
  const on = current === policy;
  const label = on ? labels[1] : labels[0];
  return (
    <button
      type="button"
      class="small with-icon"
      aria-pressed={on}
      title={label}
      onClick={() => void setTopicPolicy(session, channelId, topic, on ? 0 : policy)}
    >
      <Icon name={icon} />
      <span class="button-text">{label}</span>
    </button>
  );
}
