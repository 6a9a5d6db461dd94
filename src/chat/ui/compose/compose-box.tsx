import { effect, untracked, useSignal, useSignalEffect } from '@preact/signals';
import { useEffect, useId, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import type { ChatSession } from '../../state/session.ts';
import type { ServerEmoji } from '../../state/server-emoji.ts';
import { useChat } from '../chat-context.ts';
import { ComposePreview, PreviewToggle } from './compose-preview.tsx';
import { ScheduledEditNote, ScheduleFields, ScheduleToggle } from './schedule-control.tsx';
import { SnippetMenu } from './snippet-menu.tsx';
import { contentSuggestions, topicSuggestions } from './suggestion-sources.ts';
import { RecipientField } from './recipient-field.tsx';
import { formatKey } from '../field-edits.ts';
import { pressName } from '../key-names.ts';
import { route } from '../navigation.ts';
import { type ConversationNarrow, conversationInNarrow } from '../../narrow/narrow.ts';
import { narrowHash } from '../../narrow/narrow-url.ts';
import { slugNames } from '../slug-names.ts';
import { channelTopicNames, editLastOwnMessage } from '../messages/message-operations.ts';
import { EmojiButton } from './emoji-button.tsx';
import { FormatMenu } from './format-menu.tsx';
import { SendOptions } from './send-options.tsx';
import { useTypeahead } from './typeahead.tsx';
import { TypingSender } from './typing-sender.ts';
import { UPLOAD_IN_PROGRESS } from '../../state/composer-state.ts';
import { pastedFiles, UploadButton, UploadStatus, useFileDrop } from './upload-control.tsx';
import { LengthIndicator } from '../length-indicator.tsx';
import { ResolvedTopicNote } from './resolved-topic-note.tsx';
import { charactersLeft, messageTooLong } from '../../state/message-length.ts';

/**
 * The compose box: channel + topic or DM recipients, the message, Send. Enter and Ctrl+Enter
 * follow the user's `enter_sends` setting as upstream's do; a refused send keeps the text and
 * shows the server's message. Topic, recipients and the message offer suggestions as you type.
 * Under the message: Preview (the server's rendering), saved snippets, and scheduling for later.
 * Files upload from the chooser (Upload files), a paste, or a drop anywhere on the page, as upstream's.
 */
export function ComposeBox() {
  const { session, composer } = useChat();
  const realm = session.realm;
  const textarea = useRef<HTMLTextAreaElement>(null);
  const topicField = useRef<HTMLInputElement>(null);
  const toField = useRef<HTMLInputElement>(null);
  const channelField = useRef<HTMLSelectElement>(null);
  const previewing = useSignal(false);
  const scheduling = useSignal(false);
  const scheduleFieldsId = useId();
  const lengthId = useId();
  const typing = useMemo(() => new TypingSender(session, composer), [session]);
  const enterSends = realm.settings.value.enter_sends;
  // The channel being read is offered even when not subscribed to it (as upstream, one may write there).
  const chosen = composer.channelId.value === null ? undefined : realm.channels.value.get(composer.channelId.value);
  const offered = [...realm.subscriptions.value.values(), ...(chosen && !realm.subscriptions.value.has(chosen.stream_id) ? [chosen] : [])];
  const channels = offered.filter((channel) => !channel.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  const topics = useTopics(session, composer.channelId.value);
  const serverEmoji = useServerEmoji(session);
  // Upstream offers no one I muted, in mentions or as a recipient.
  const activeUsers = () => [...realm.users.value.values()].filter((user) => user.is_active && !realm.isMuted(user.user_id));

  const topicTypeahead = useTypeahead(topicField, topicSuggestions(() => topics), (text) => (composer.topic.value = text));
  const contentTypeahead = useTypeahead(
    textarea,
    contentSuggestions({
      users: activeUsers,
      groups: () => realm.groupPermissions.mentionableBy(session.me),
      isDm: () => composer.mode.peek() === 'dm',
      channels: () => [...realm.channels.value.values()].filter((channel) => !channel.is_archived),
      customEmoji: () => realm.activeRealmEmoji().map((emoji) => ({ name: emoji.name, image: session.api.resolve(emoji.source_url) })),
      serverEmoji: () => serverEmoji.wanted(),
    }),
    (text) => composer.setContent(text),
  );

  // The server's emoji arrive after the box is up: offer them to a `:` already typed.
  useSignalEffect(() => {
    if (serverEmoji.emoji.value.length > 0) untracked(() => contentTypeahead.refresh());
  });

  // Run as the request is made (not a frame later, as useSignalEffect would): letters typed right
  // after `c` or `r` go into the box, not to the shortcuts.
  useLayoutEffect(() => effect(() => {
    if (composer.focusRequest.value === 0) return;
    // A new direct message (`x`) needs its people first; the field shows once the mode has drawn.
    if (composer.mode.peek() === 'dm' && !composer.to.peek().trim()) {
      requestAnimationFrame(() => toField.current?.focus());
      return;
    }
    // No channel yet (a forward, or `c` in the combined feed): the channel is chosen first, as upstream.
    if (composer.mode.peek() === 'channel' && composer.channelId.peek() === null) {
      requestAnimationFrame(() => channelField.current?.focus());
      return;
    }
    if (!previewing.peek()) {
      textarea.current?.focus();
      return;
    }
    // The text is wanted again: back from the preview, focused once the box is shown.
    previewing.value = false;
    requestAnimationFrame(() => textarea.current?.focus());
  }), []);

  /** Where the last message went, when the view shown does not show it. */
  const sentElsewhere = useSignal<{ conversation: ConversationNarrow; id: number } | null>(null);
  useSignalEffect(() => {
    void route.value;
    untracked(() => (sentElsewhere.value = null));
  });

  // Upstream's compose banners go once the recipient changes: a fixed To, a channel chosen.
  useSignalEffect(() => {
    void [composer.mode.value, composer.channelId.value, composer.topic.value, composer.to.value];
    untracked(() => (composer.error.value = null));
  });

  /**
   * Enter in Topic or To goes on to the message, as upstream's: the form would otherwise take it
   * as Send, sending before the message is written.
   */
  function toMessageOnEnter(event: KeyboardEvent): boolean {
    if (event.key !== 'Enter' || event.isComposing) return false;
    event.preventDefault();
    textarea.current?.focus();
    return true;
  }

  /** Uploads go in where the caret is, in the text (upstream leaves the preview first). */
  function upload(files: File[]): void {
    const field = textarea.current;
    if (files.length === 0 || !field) return;
    previewing.value = false;
    const caret = composer.uploads.add(files, { start: field.selectionStart, end: field.selectionEnd });
    if (caret === null) return;
    requestAnimationFrame(() => {
      field.focus();
      field.setSelectionRange(caret, caret);
    });
  }
  const drop = useFileDrop(upload);
  const uploading = composer.uploads.inFlight.value.length > 0;
  const maxLength = realm.maxMessageLength.value;
  const left = charactersLeft(composer.content.value, maxLength);
  const overLimit = left !== null && left < 0;
  // Upstream says so before one writes: the server would refuse the message.
  const mayNotPost = composer.mode.value === 'channel' && composer.channelId.value !== null && !realm.mayPost(composer.channelId.value);

  /** Upstream's Alt+P, from the text or the preview: the other one, focused. */
  function togglePreview(event: KeyboardEvent): void {
    if (pressName(event) !== 'Alt+P') return;
    event.preventDefault();
    event.stopPropagation();
    if (previewing.peek()) {
      composer.focusRequest.value += 1;
      return;
    }
    previewing.value = true;
    const form = event.currentTarget as HTMLElement;
    requestAnimationFrame(() => form.querySelector<HTMLElement>('.compose-preview')?.focus());
  }

  async function send(): Promise<void> {
    // Ctrl+Enter too: nothing goes where the server would refuse it.
    if (mayNotPost) return;
    typing.stop();
    const conversation = composer.conversation();
    sentElsewhere.value = null;
    if (!(await composer.send())) return;
    previewing.value = false;
    const shown = route.peek();
    const id = composer.lastSentId.peek();
    // Upstream's banner for a message the view does not show (a search's view is not told).
    if (conversation && id !== null && (shown.view !== undefined || conversationInNarrow(conversation, shown.narrow) === false)) {
      sentElsewhere.value = { conversation, id };
    }
  }

  const mode = composer.mode.value;
  return (
    <form
      class={`compose ${drop.dropping.value ? 'dropping' : ''}`}
      aria-label="Compose"
      {...drop.handlers}
      onKeyDownCapture={togglePreview}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <div class="compose-recipient">
        <div class="mode-switch" role="radiogroup" aria-label="Message type">
          <label class={mode === 'channel' ? 'active' : ''}>
            <input type="radio" name="compose-mode" value="channel" checked={mode === 'channel'} onChange={() => (composer.mode.value = 'channel')} onKeyDown={toMessageOnEnter} />
            Channel message
          </label>
          <label class={mode === 'dm' ? 'active' : ''}>
            <input type="radio" name="compose-mode" value="dm" checked={mode === 'dm'} onChange={() => (composer.mode.value = 'dm')} onKeyDown={toMessageOnEnter} />
            Direct message
          </label>
        </div>
        {mode === 'channel' ? (
          <>
            <select
              ref={channelField}
              class="channel-field"
              aria-label="Channel"
              value={composer.channelId.value ?? ''}
              onChange={(event) => (composer.channelId.value = event.currentTarget.value ? Number(event.currentTarget.value) : null)}
            >
              <option value="" disabled>
                Choose a channel
              </option>
              {channels.map((sub) => (
                <option key={sub.stream_id} value={sub.stream_id}>
                  #{sub.name}
                </option>
              ))}
            </select>
            <span aria-hidden="true" class="recipient-separator">›</span>
            <div class="compose-field topic-field">
              <input
                ref={topicField}
                aria-label="Topic"
                placeholder={realm.emptyTopicName.value}
                maxLength={realm.maxTopicLength.value}
                value={composer.topic.value}
                {...topicTypeahead.fieldProps}
                onFocus={topicTypeahead.refresh}
                onInput={(event) => {
                  composer.topic.value = event.currentTarget.value;
                  topicTypeahead.refresh();
                }}
                onKeyDown={(event) => topicTypeahead.onKeyDown(event) || toMessageOnEnter(event)}
              />
              {topicTypeahead.list}
            </div>
          </>
        ) : (
          <RecipientField field={toField} onEnter={toMessageOnEnter} />
        )}
      </div>
      <div class="compose-field message-field">
        <textarea
          ref={textarea}
          class="compose-message"
          aria-label="Message"
          placeholder={enterSends ? 'Message (Enter sends, Shift+Enter for a new line)' : 'Message (Ctrl+Enter sends)'}
          value={composer.content.value}
          aria-invalid={overLimit}
          aria-describedby={left === null ? undefined : lengthId}
          hidden={previewing.value}
          {...contentTypeahead.fieldProps}
          onInput={(event) => {
            composer.setContent(event.currentTarget.value);
            contentTypeahead.refresh();
            typing.keystroke();
          }}
          onPaste={(event) => {
            const files = pastedFiles(event);
            if (files.length === 0) return;
            // Not the file's name as text as well.
            event.preventDefault();
            upload(files);
          }}
          onKeyDown={(event) => {
            // Ctrl keys go on: upstream's Ctrl+K, Ctrl+S and Ctrl+. work while writing too.
            if (!event.ctrlKey && !event.metaKey) event.stopPropagation();
            if (contentTypeahead.onKeyDown(event)) return;
            if (formatKey(event, event.currentTarget)) return;
            if (event.key === 'Escape') event.currentTarget.blur();
            // Upstream's ← in an empty box: my last message in the view, to edit.
            if (pressName(event) === 'ArrowLeft' && event.currentTarget.value === '' && editLastOwnMessage(session, route.value.narrow)) {
              event.preventDefault();
              return;
            }
            if (event.key !== 'Enter' || event.isComposing) return;
            const modified = event.ctrlKey || event.metaKey;
            if ((enterSends && !event.shiftKey && !modified) || (!enterSends && modified)) {
              event.preventDefault();
              void send();
            }
          }}
        />
        {previewing.value ? <ComposePreview content={composer.content.value} /> : contentTypeahead.list}
      </div>
      <LengthIndicator id={lengthId} left={left} max={maxLength} />
      <ScheduledEditNote />
      <ResolvedTopicNote />
      <UploadStatus />
      {sentElsewhere.value && <SentElsewhere {...sentElsewhere.value} onClose={() => (sentElsewhere.value = null)} />}
      {mayNotPost && <p class="form-error">You do not have permission to post in this channel.</p>}
      {composer.error.value && (
        <p class="form-error" role="alert">
          {composer.error.value}
        </p>
      )}
      <ScheduleFields open={scheduling} fieldsId={scheduleFieldsId} />
      <div class="compose-buttons">
        <UploadButton onFiles={upload} />
        <EmojiButton textarea={textarea} />
        <FormatMenu textarea={textarea} />
        <PreviewToggle previewing={previewing} />
        <SnippetMenu textarea={textarea} />
        <ScheduleToggle open={scheduling} fieldsId={scheduleFieldsId} />
        <button
          type="submit"
          class="primary compose-send"
          disabled={composer.sending.value || uploading || overLimit || mayNotPost}
          title={uploading ? UPLOAD_IN_PROGRESS : overLimit ? messageTooLong(maxLength) : undefined}
        >
          Send
        </button>
        <SendOptions onChosen={() => textarea.current?.focus()} />
      </div>
    </form>
  );
}

/** Upstream's "Sent! Your message is outside your current view." with a link to the message in its conversation. */
function SentElsewhere({ conversation, id, onClose }: { conversation: ConversationNarrow; id: number; onClose(): void }) {
  const { session } = useChat();
  const name = session.realm.conversationName(conversation.kind === 'channel' ? { channelId: conversation.channelId, topic: conversation.topic ?? '' } : conversation);
  return (
    <p class="compose-banner" role="status">
      Sent! Your message is outside your current view. <a href={narrowHash(conversation, slugNames(session), id)}>{name}</a>
      <button type="button" class="banner-close" aria-label="Close" title="Close" onClick={onClose}>
        ×
      </button>
    </p>
  );
}

/** The channel's topics, newest first, for suggestions. */
function useTopics(session: ChatSession, channelId: number | null): string[] {
  const topics = useSignal<string[]>([]);
  useEffect(() => {
    if (channelId === null) return;
    channelTopicNames(session, channelId).then(
      (names) => (topics.value = names),
      () => (topics.value = []),
    );
  }, [channelId, channelId === null ? 0 : session.realm.topicChanges.value.get(channelId)]);
  return topics.value;
}

/** Every emoji the server accepts, fetched once the first view has had its turn. */
function useServerEmoji(session: ChatSession) {
  const emoji = useSignal<ServerEmoji[]>([]);
  const load = (): void => void session.emoji.load().then((loaded) => (emoji.value = loaded));
  useEffect(() => {
    const timer = setTimeout(load, 2000);
    return () => clearTimeout(timer);
  }, [session]);
  return {
    emoji,
    /**
     * The emoji, asked for by a `:` being typed: loaded at once if the timer has not yet, or
     * again if the last load failed (the file is fetched once; a failure is not kept).
     */
    wanted(): ServerEmoji[] {
      if (emoji.value.length === 0) load();
      return emoji.value;
    },
  };
}

