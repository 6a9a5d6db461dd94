import type { Message } from '../../api/wire-types.ts';
import type { Narrow } from '../../narrow/narrow.ts';
import { TOPIC_FOLLOWED, TOPIC_MUTED, TOPIC_UNMUTED } from '../../state/realm-state.ts';
import { useChat } from '../chat-context.ts';
import { attempt } from '../notices.ts';
import {
  copyToClipboard,
  markNarrowRead,
  messageDialog,
  narrowLink,
  RESOLVED_TOPIC_PREFIX,
  setTopicPolicy,
  toggleTopicResolved,
  unreadInNarrow,
} from './message-operations.ts';

interface TopicMenuItemsProps {
  channelId: number;
  topic: string;
  /** The topic's newest message, which a whole topic's move names it by; undefined for a topic with none. */
  newest: (() => Promise<Message | undefined>) | undefined;
  /** Also its visibility, Mark all messages as read and resolving: the sidebar's menu. The heading has buttons of its own for those. */
  full?: boolean;
}

/**
 * The first items of upstream's channel and topic menus: Mark all messages as read (when some
 * are unread, and `markRead`) and the view's link.
 */
export function ReadAndLinkItems({ narrow, linkLabel, markRead }: { narrow: Narrow; linkLabel: string; markRead: boolean }) {
  const { session } = useChat();
  const unread = markRead ? session.realm.unread.value.countWhere(unreadInNarrow(session, narrow)!) : 0;
  return (
    <>
      {unread > 0 && (
        <button type="button" role="menuitem" onClick={() => void markNarrowRead(session, narrow)}>
          Mark all messages as read
        </button>
      )}
      <button type="button" role="menuitem" onClick={() => void copyToClipboard(narrowLink(session, narrow))}>
        {linkLabel}
      </button>
    </>
  );
}

/**
 * A topic's actions as upstream's topic menu offers them, each as the realm lets the user (the
 * server deciding): the heading's menu and the sidebar's topic menu both list these. The menu
 * holding them closes on a click, so each item only acts.
 */
export function TopicMenuItems({ channelId, topic, newest, full = false }: TopicMenuItemsProps) {
  const { session, composer } = useChat();
  const realm = session.realm;
  const narrow = { kind: 'channel' as const, channelId, topic };
  const openWhole = (whole: 'rename' | 'move') =>
    void attempt('Could not open the topic', async () => {
      const message = await newest?.();
      if (message) messageDialog.value = { kind: 'move', message, whole };
    });
  return (
    <>
      {full && <VisibilityChoices channelId={channelId} topic={topic} />}
      <ReadAndLinkItems narrow={narrow} linkLabel="Copy link to topic" markRead={full} />
      {newest && realm.may('can_move_messages_between_topics_group') && (
        <button type="button" role="menuitem" onClick={() => openWhole('rename')}>
          Rename topic
        </button>
      )}
      {newest && realm.may('can_move_messages_between_channels_group') && (
        <button type="button" role="menuitem" onClick={() => openWhole('move')}>
          Move topic
        </button>
      )}
      {full && newest && topic !== '' && realm.may('can_resolve_topics_group') && (
        <button type="button" role="menuitem" onClick={() => void toggleTopicResolved(session, composer, channelId, topic)}>
          {topic.startsWith(RESOLVED_TOPIC_PREFIX) ? 'Mark as unresolved' : 'Mark as resolved'}
        </button>
      )}
      {newest && realm.isAdmin.value && (
        <button type="button" role="menuitem" class="danger" onClick={() => (messageDialog.value = { kind: 'deleteTopic', channelId, topic })}>
          Delete topic
        </button>
      )}
    </>
  );
}

/** Upstream's topic visibility choices: Mute, Default (the channel's), Unmute (where the channel is muted), Follow. */
function VisibilityChoices({ channelId, topic }: { channelId: number; topic: string }) {
  const { session } = useChat();
  const realm = session.realm;
  const policy = realm.topicPolicy(channelId, topic);
  const channelMuted = realm.subscriptions.value.get(channelId)?.is_muted ?? false;
  const choices: [number, string][] = [
    [TOPIC_MUTED, 'Mute'],
    [0, 'Default'],
    ...(channelMuted || policy === TOPIC_UNMUTED ? [[TOPIC_UNMUTED, 'Unmute'] as [number, string]] : []),
    [TOPIC_FOLLOWED, 'Follow'],
  ];
  return (
    <div role="group" class="menu-choices" aria-label="Topic visibility">
      {choices.map(([value, label]) => (
        <button
          key={value}
          type="button"
          role="menuitemradio"
          aria-checked={policy === value}
          onClick={() => {
            if (policy !== value) void setTopicPolicy(session, channelId, topic, value);
          }}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
