import { memo } from 'preact/compat';
import type { Message } from '../../api/wire-types.ts';
import { useChat } from '../chat-context.ts';
import type { timeFormatter } from '../time-format.ts';
import { Avatar } from './avatar.tsx';
import { MessageActions } from './message-actions.tsx';
import { MessageContent } from './message-content.tsx';
import { MessageEditor } from './message-editor.tsx';
import { MessageWidget } from './message-widget.tsx';
import { widgetOf } from '../../state/widgets.ts';
import { Reactions } from './reactions.tsx';
import { onMessageClick } from './message-click.ts';
import { editing, messageDialog, revealedMuted, setRevealed, toggleCollapsed } from './message-operations.ts';

interface Props {
  message: Message;
  showSender: boolean;
  format: ReturnType<typeof timeFormatter>;
  /** Unread when this view showed it, read since: the unread marker fades out. */
  readHere: boolean;
}

/**
 * One message, drawn again only when its props change or a signal it reads does: the list
 * re-renders its window on every scroll and measurement, and most rows stay as they were.
 */
export const MessageRow = memo(MessageRowContent);

/** One message: sender (visible on the first of a run, always there for readers), time, content, reactions, actions. */
function MessageRowContent({ message, showSender, format, readHere }: Props) {
  const context = useChat();
  const { session, selectedId } = context;
  const realm = session.realm;
  const unread = realm.unread.value.has(message.id);
  const starred = message.flags.includes('starred');
  const mentioned = message.flags.includes('mentioned') || message.flags.includes('wildcard_mentioned');
  const selected = selectedId.value === message.id;
  const sender = realm.users.value.get(message.sender_id);
  const avatar = sender?.avatar_url ?? message.avatar_url;
  const isEditing = editing.value === message.id;
  const widget = widgetOf(message, session.me);
  const collapsed = message.flags.includes('collapsed');
  // A replica's message the hub has not acknowledged yet (upstream's local echo shows these too).
  const pending = session.sync.replica.value?.pendingIds.has(message.id) ?? false;
  if (realm.isMuted(message.sender_id) && !revealedMuted.value.has(message.id)) return <MutedMessage message={message} selected={selected} format={format} />;
  return (
    <article
      class={`message ${showSender ? 'with-sender' : 'continued'} ${unread ? 'unread' : readHere ? 'was-unread' : ''} ${selected ? 'selected' : ''} ${mentioned ? 'mentioned' : ''} ${pending ? 'pending' : ''}`}
      data-message-id={message.id}
      aria-label={`${message.sender_full_name}, ${format.time(message.timestamp)}`}
      onClick={(event) => onMessageClick(event, message, context)}
    >
      {showSender ? (
        avatar ? <Avatar url={session.api.resolve(avatar)} /> : <span class="avatar" />
      ) : (
        <span class="avatar-gap" />
      )}
      <div class="message-body">
        <div class={`message-meta ${showSender ? '' : 'visually-hidden'}`}>
          {showSender ? (
            <button
              type="button"
              class="sender-name"
              aria-haspopup="dialog"
              onClick={(event) => {
                event.stopPropagation();
                messageDialog.value = { kind: 'user', userId: message.sender_id };
              }}
            >
              {message.sender_full_name}
            </button>
          ) : (
            <span class="sender-name">{message.sender_full_name}</span>
          )}
          {sender?.is_bot && <span class="bot-badge">bot</span>}
          {sender?.is_guest && <span class="guest-badge">(guest)</span>}
        </div>
        <MessageTime timestamp={message.timestamp} format={format} />
        {isEditing ? (
          <MessageEditor message={message} />
        ) : (
          // A widget shows instead of its `/poll` or `/todo` text, and a collapsed message shows
          // neither; the text stays in the element (runtime contract 5).
          <MessageContent message={message} hidden={widget !== null || collapsed} />
        )}
        {widget && !isEditing && !collapsed && <MessageWidget message={message} widget={widget} />}
        {collapsed && !isEditing && (
          <button type="button" class="condense-toggle" title="This message is collapsed" aria-label="Expand collapsed message" onClick={() => void toggleCollapsed(session, message)}>
            More…
          </button>
        )}
        {!isEditing && <ChangedMarker message={message} format={format} />}
        {starred && <span class="star-marker" title="Starred" aria-label="Starred">★</span>}
        {pending && <span class="pending-marker" title="Sent in this browser; not on the hub yet">pending</span>}
        <Reactions message={message} />
      </div>
      <MessageActions message={message} />
    </article>
  );
}

/**
 * A muted sender's message, as upstream hides it: no name, picture or content until revealed.
 * Read already (the server marks it so for the muter), so it carries no unread marker.
 */
function MutedMessage({ message, selected, format }: { message: Message; selected: boolean; format: ReturnType<typeof timeFormatter> }) {
  const { selectedId } = useChat();
  return (
    <article
      class={`message with-sender muted-sender ${selected ? 'selected' : ''}`}
      data-message-id={message.id}
      aria-label={`Message from a muted user, ${format.time(message.timestamp)}`}
      onClick={() => (selectedId.value = message.id)}
    >
      <span class="avatar" />
      <div class="message-body">
        <div class="message-meta">
          <span class="sender-name">Muted user</span>
        </div>
        <MessageTime timestamp={message.timestamp} format={format} />
        <p class="muted-notice">
          Message from a muted user.
          <button type="button" class="condense-toggle" aria-label="Reveal message from muted user" onClick={() => setRevealed(message.id, true)}>
            Reveal
          </button>
        </p>
      </div>
    </article>
  );
}

function MessageTime({ timestamp, format }: { timestamp: number; format: ReturnType<typeof timeFormatter> }) {
  return (
    <time class="message-time" dateTime={new Date(timestamp * 1000).toISOString()} title={format.full(timestamp)}>
      {format.time(timestamp)}
    </time>
  );
}

/** Upstream's marker of a changed message: "edited" when its content changed, else "moved" when it changed topic or channel. */
function ChangedMarker({ message, format }: { message: Message; format: ReturnType<typeof timeFormatter> }) {
  const [what, when] = message.last_edit_timestamp !== undefined ? ['edited', message.last_edit_timestamp] : ['moved', message.last_moved_timestamp];
  if (when === undefined) return null;
  return (
    <span class="edited-marker" title={`${what === 'edited' ? 'Edited' : 'Moved'} ${format.full(when)}`}>
      ({what})
    </span>
  );
}
