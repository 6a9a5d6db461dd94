import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { Message } from '../../api/wire-types.ts';
import { showsTopic } from '../../narrow/narrow.ts';
import { useChat } from '../chat-context.ts';
import { ConfirmDialog } from '../confirm-dialog.tsx';
import { Dialog } from '../dialog.tsx';
import { EmojiPicker } from '../emoji-picker.tsx';
import { messageHtml } from '../message-html.ts';
import { navigate, route } from '../navigation.ts';
import { attempt } from '../notices.ts';
import { slugNames } from '../slug-names.ts';
import { timeFormatter } from '../time-format.ts';
import { followTopicMove, messageDialog, toggleReaction } from './message-operations.ts';
import { RemindDialog } from './remind-dialog.tsx';
import { UserCard } from './user-card.tsx';

/** Whichever message dialog is open. */
export function MessageDialogs() {
  const dialog = messageDialog.value;
  // Only this dialog: another may have opened since (a key pressed right after Esc).
  const close = () => {
    if (messageDialog.peek() === dialog) messageDialog.value = null;
  };
  if (!dialog) return null;
  switch (dialog.kind) {
    case 'history':
      return <EditHistory message={dialog.message} onClose={close} />;
    case 'source':
      return <MessageSource message={dialog.message} onClose={close} />;
    case 'receipts':
      return <ReadReceipts message={dialog.message} onClose={close} />;
    case 'remind':
      return <RemindDialog message={dialog.message} onClose={close} />;
    case 'move':
      return <MoveMessage message={dialog.message} whole={dialog.whole} onClose={close} />;
    case 'delete':
      return <DeleteMessage message={dialog.message} onClose={close} />;
    case 'deleteTopic':
      return <DeleteTopic channelId={dialog.channelId} topic={dialog.topic} onClose={close} />;
    case 'react':
      return <ReactionPicker message={dialog.message} onClose={close} />;
    case 'user':
      return <UserCard userId={dialog.userId} onClose={close} />;
  }
}

interface Snapshot {
  timestamp: number;
  user_id: number | null;
  topic: string;
  rendered_content?: string;
  prev_topic?: string;
  prev_stream?: number;
  stream?: number;
}

function EditHistory({ message, onClose }: { message: Message; onClose(): void }) {
  const { session } = useChat();
  const history = useSignal<Snapshot[] | null>(null);
  const error = useSignal<string | null>(null);
  const settings = session.realm.settings.value;
  const format = timeFormatter(settings.timezone, settings.twenty_four_hour_time);
  useEffect(() => {
    session.api.get<{ message_history: Snapshot[] }>(`/messages/${message.id}/history`).then(
      (answer) => (history.value = answer.message_history),
      (failure: unknown) => (error.value = failure instanceof Error ? failure.message : String(failure)),
    );
  }, [message.id]);
  return (
    <Dialog title="Message edit history" onClose={onClose} wide>
      {error.value && <p class="form-error" role="alert">{error.value}</p>}
      {!history.value && !error.value && <p role="status">Loading…</p>}
      <ol class="edit-history">
        {history.value?.map((snapshot, index) => (
          <li key={index}>
            <p class="history-meta">
              {index === 0 ? 'Posted' : 'Edited'} by {snapshot.user_id === null ? 'someone' : session.realm.userName(snapshot.user_id)},{' '}
              <time>{format.full(snapshot.timestamp)}</time>
              {snapshot.prev_topic !== undefined && ` — topic was “${snapshot.prev_topic}”, now “${snapshot.topic}”`}
            </p>
            {snapshot.rendered_content !== undefined && (
              <div class="rendered" dangerouslySetInnerHTML={{ __html: messageHtml(snapshot.rendered_content, session.api.server) }} />
            )}
          </li>
        ))}
      </ol>
    </Dialog>
  );
}

/** Upstream's View message source: the Markdown as written, for a message one may not edit (to copy from it). */
function MessageSource({ message, onClose }: { message: Message; onClose(): void }) {
  const { session } = useChat();
  const source = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  useEffect(() => {
    session.api.get<{ message: { content: string } }>(`/messages/${message.id}`, { apply_markdown: false }).then(
      (answer) => (source.value = answer.message.content),
      (failure: unknown) => (error.value = failure instanceof Error ? failure.message : String(failure)),
    );
  }, [message.id]);
  return (
    <Dialog title="Message source" onClose={onClose} wide>
      {error.value && <p class="form-error" role="alert">{error.value}</p>}
      {source.value === null && !error.value && <p role="status">Loading…</p>}
      {source.value !== null && <pre class="message-source" tabIndex={0} aria-label="Markdown of the message">{source.value}</pre>}
    </Dialog>
  );
}

/** Upstream's read receipts: who has read the message (its sender and those who turned receipts off left out). */
function ReadReceipts({ message, onClose }: { message: Message; onClose(): void }) {
  const { session } = useChat();
  const readers = useSignal<number[] | null>(null);
  const error = useSignal<string | null>(null);
  useEffect(() => {
    session.api.get<{ user_ids: number[] }>(`/messages/${message.id}/read_receipts`).then(
      (answer) => (readers.value = answer.user_ids),
      (failure: unknown) => (error.value = failure instanceof Error ? failure.message : String(failure)),
    );
  }, [message.id]);
  const people = readers.value?.map((id) => ({ id, name: session.realm.userName(id) })).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <Dialog title="Read receipts" onClose={onClose}>
      {error.value && <p class="form-error" role="alert">{error.value}</p>}
      {!people && !error.value && <p role="status">Loading…</p>}
      {people && people.length === 0 && <p>No one has read this message yet.</p>}
      {people && people.length > 0 && (
        <>
          <p>
            This message has been read by {people.length} {people.length === 1 ? 'person' : 'people'}:
          </p>
          <ul class="read-receipts">
            {people.map((person) => (
              <li key={person.id}>{person.name}</li>
            ))}
          </ul>
        </>
      )}
    </Dialog>
  );
}

const MOVE_TITLES = { rename: 'Rename topic', move: 'Move topic' };

/**
 * Upstream's move dialog: a message, the ones after it or its whole topic (`whole`: the topic's
 * Rename topic, with its channel kept, or Move topic) to another topic or channel, with the
 * notification bot's notices in the new and the old topic as chosen. A topic moved while open
 * is followed to its new place, as upstream's web app does.
 */
function MoveMessage({ message, whole, onClose }: { message: Message; whole?: 'rename' | 'move'; onClose(): void }) {
  const { session, composer } = useChat();
  const realm = session.realm;
  // My channels, and the message's own though I left it (else the list would show none chosen).
  const here = message.stream_id === undefined || realm.subscriptions.value.has(message.stream_id) ? undefined : realm.channels.value.get(message.stream_id);
  const channels = [...realm.subscriptions.value.values(), ...(here ? [here] : [])].filter((channel) => !channel.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  const channelId = useSignal(message.stream_id ?? 0);
  const topic = useSignal(message.subject);
  const mode = useSignal('change_all');
  const noticeInNew = useSignal(true);
  const noticeInOld = useSignal(false);
  const busy = useSignal(false);
  const toOtherChannel = whole !== 'rename' && session.realm.may('can_move_messages_between_channels_group');
  const toOtherTopic = session.realm.may('can_move_messages_between_topics_group');
  async function move(): Promise<void> {
    // Nothing to move: the server would refuse it ("Nothing to change").
    if (topic.value.trim() === message.subject && channelId.value === message.stream_id) {
      onClose();
      return;
    }
    busy.value = true;
    const params: Record<string, unknown> = {
      topic: topic.value,
      propagate_mode: whole ? 'change_all' : mode.value,
      send_notification_to_new_thread: noticeInNew.value,
      send_notification_to_old_thread: noticeInOld.value,
    };
    if (channelId.value !== message.stream_id) params.stream_id = channelId.value;
    const moved = await attempt('Could not move the message', () => session.api.patch(`/messages/${message.id}`, params as Record<string, string>));
    busy.value = false;
    if (!moved) return;
    onClose();
    if (whole && message.stream_id !== undefined) followTopicMove(session, composer, { channelId: message.stream_id, topic: message.subject }, { channelId: channelId.value, topic: topic.value.trim() });
  }
  return (
    <Dialog title={whole ? MOVE_TITLES[whole] : 'Move messages'} onClose={onClose}>
      <form
        class="stacked-form"
        onSubmit={(event) => {
          event.preventDefault();
          void move();
        }}
      >
        {whole !== 'rename' && (
          <label>
            Destination channel
            <select value={channelId.value} disabled={!toOtherChannel} onChange={(event) => (channelId.value = Number(event.currentTarget.value))}>
              {channels.map((channel) => (
                <option key={channel.stream_id} value={channel.stream_id}>
                  #{channel.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label>
          New topic
          <input
            value={topic.value}
            readOnly={!toOtherTopic}
            maxLength={session.realm.maxTopicLength.value}
            // Renaming is the point of Rename topic: the name is where the keys go.
            autoFocus={whole === 'rename'}
            onInput={(event) => (topic.value = event.currentTarget.value)}
          />
        </label>
        {whole !== 'rename' && (!toOtherChannel || !toOtherTopic) && (
          <p class="hint">{toOtherChannel ? 'This organization does not let you rename topics: only the channel can change.' : 'This organization does not let you move messages to another channel: only the topic can change.'}</p>
        )}
        {!whole && (
          <label>
            Which messages
            <select value={mode.value} onChange={(event) => (mode.value = event.currentTarget.value)}>
              <option value="change_one">Only this message</option>
              <option value="change_later">This and all following messages in the topic</option>
              <option value="change_all">All messages in the topic</option>
            </select>
          </label>
        )}
        <label class="checkbox">
          <input type="checkbox" checked={noticeInNew.value} onChange={(event) => (noticeInNew.value = event.currentTarget.checked)} />
          Send automated notice to new topic
        </label>
        <label class="checkbox">
          <input type="checkbox" checked={noticeInOld.value} onChange={(event) => (noticeInOld.value = event.currentTarget.checked)} />
          Send automated notice to old topic
        </label>
        <div class="form-buttons">
          <button type="submit" class="primary" disabled={busy.value}>
            {whole === 'rename' ? 'Rename' : 'Move'}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function DeleteMessage({ message, onClose }: { message: Message; onClose(): void }) {
  const { session } = useChat();
  return (
    <ConfirmDialog title="Delete message?" action="Delete" onClose={onClose} onConfirm={() => attempt('Could not delete the message', () => session.api.delete(`/messages/${message.id}`))}>
      <p>Deleting a message removes it for everyone. This cannot be undone.</p>
    </ConfirmDialog>
  );
}

/** Upstream's Delete topic (administrators), asked first: every message of the topic goes, for everyone. */
function DeleteTopic({ channelId, topic, onClose }: { channelId: number; topic: string; onClose(): void }) {
  const { session } = useChat();
  const realm = session.realm;
  const name = topic || realm.emptyTopicName.value;
  async function remove(): Promise<boolean> {
    const deleted = await attempt('Could not delete the topic', async () => {
      // Upstream's server deletes in batches and says when it stopped before the end: ask again.
      for (let round = 0; round < 50; round++) {
        const answer = await session.api.post<{ complete: boolean }>(`/streams/${channelId}/delete_topic`, { topic_name: topic });
        if (answer.complete) return;
      }
    });
    if (deleted && showsTopic(route.value.narrow, channelId, topic)) navigate({ kind: 'channel', channelId }, slugNames(session));
    return deleted;
  }
  return (
    <ConfirmDialog title={`Delete topic “${name}”?`} action="Delete topic" onClose={onClose} onConfirm={remove}>
      <p>Deleting a topic removes it and every message in it for everyone in #{realm.channelName(channelId) ?? channelId}. This cannot be undone.</p>
    </ConfirmDialog>
  );
}

function ReactionPicker({ message, onClose }: { message: Message; onClose(): void }) {
  const { session } = useChat();
  return (
    <Dialog title="Add reaction" onClose={onClose}>
      <EmojiPicker
        onPick={(emoji) => {
          onClose();
          void toggleReaction(session, message, emoji);
        }}
      />
    </Dialog>
  );
}
