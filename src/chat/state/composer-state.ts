import { batch, signal } from '@preact/signals';
import { del, entries, get, set } from 'idb-keyval';
import { ApiFailure } from '../api/api-client.ts';
import type { ScheduledMessage } from '../api/wire-types.ts';
import { type ConversationNarrow, dmParticipants, type Narrow, sortedIds } from '../narrow/narrow.ts';
import type { ChatSession } from './session.ts';
import { ComposeUploads } from './compose-uploads.ts';
import type { RefusedSend } from './sync-state.ts';
import { characterCount, messageTooLong } from './message-length.ts';
import { resolveRecipients } from './recipients.ts';

export type ComposeMode = 'channel' | 'dm';

/** Where a message goes, as the API's `type` and `to` name it (a channel with its topic, or the DM's people). */
type Recipient = { type: 'stream'; to: number; topic: string } | { type: 'direct'; to: number[] };

/** Upstream's words for Send while a file is still on its way. */
export const UPLOAD_IN_PROGRESS = 'Cannot send message while files are being uploaded.';

/**
 * The compose box's state: where the message goes, what it says, and the drafts kept per
 * conversation in IndexedDB (idb-keyval), so text survives reloads and narrow switches.
 */
export class ComposerState {
  readonly mode = signal<ComposeMode>('channel');
  readonly channelId = signal<number | null>(null);
  readonly topic = signal('');
  readonly to = signal('');
  readonly content = signal('');
  readonly error = signal<string | null>(null);
  readonly sending = signal(false);
  /** The id of the last message this box sent (`POST /messages`), for the list to show or point to. */
  readonly lastSentId = signal<number | null>(null);
  /** The scheduled message being edited here, if any: Schedule then changes it instead of adding one. */
  readonly scheduledId = signal<number | null>(null);
  /** Bumps when something asks the message box to take focus. */
  readonly focusRequest = signal(0);
  readonly uploads: ComposeUploads;
  /** The drafts kept for this login, as the Drafts panel lists them and the sidebar counts them; null until first read. */
  readonly kept = signal<readonly KeptDraft[] | null>(null);
  #draftReads = 0;
  readonly #session: ChatSession;
  readonly #draftPrefix: string;
  #draftTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(session: ChatSession, login: { server: string; email: string }) {
    this.#session = session;
    this.#draftPrefix = `chat:draft:${login.server}:${login.email}:`;
    this.uploads = new ComposeUploads(session.api, session.realm.maxFileUploadSizeMib, this);
    void this.#readDrafts();
  }

  /** Composing inside a topic or DM narrow starts from its recipient (runtime contract 5). */
  prefill(narrow: Narrow): void {
    if (narrow.kind !== 'channel' && narrow.kind !== 'dm') return;
    // A link to a channel this user cannot see (or none by that id): the box names no channel, so
    // nothing goes there (not even typing notices) until one is chosen.
    if (narrow.kind === 'channel' && !this.#session.realm.channels.value.has(narrow.channelId)) {
      batch(() => {
        this.mode.value = 'channel';
        this.channelId.value = null;
      });
      return;
    }
    const before = this.#draftKey();
    this.#keepDraft(before);
    batch(() => {
      this.#setRecipient(narrow.kind === 'channel' ? { type: 'stream', to: narrow.channelId, topic: narrow.topic ?? '' } : { type: 'direct', to: narrow.userIds });
      if (this.#draftKey() !== before) this.content.value = '';
    });
    void this.#restoreDraft();
  }

  /**
   * A whole topic moved (renamed, resolved, to another channel): a box addressed to it follows it,
   * its unsent text with it, as upstream's does. Returns whether it followed.
   */
  followTopicMove(from: { channelId: number; topic: string }, to: { channelId: number; topic: string }): boolean {
    if (this.mode.value !== 'channel' || this.channelId.value !== from.channelId || this.topic.value.trim().toLowerCase() !== from.topic.toLowerCase()) return false;
    const before = this.#draftKey();
    if (this.#draftTimer) clearTimeout(this.#draftTimer);
    batch(() => {
      this.channelId.value = to.channelId;
      this.topic.value = to.topic;
    });
    // The draft moves too: none is left under the old name.
    if (before && before !== this.#draftKey()) void this.#writeDraft(before, null);
    void this.#saveDraft();
    return true;
  }

  /** Reply to a message: its conversation becomes the recipient; settled once its draft is back in the box. */
  replyTo(message: { type: string; stream_id?: number; subject: string; display_recipient: unknown }): Promise<void> {
    const before = this.#draftKey();
    this.#keepDraft(before);
    batch(() => {
      if (message.type === 'stream') {
        this.mode.value = 'channel';
        this.channelId.value = message.stream_id ?? null;
        this.topic.value = message.subject;
      } else {
        const me = this.#session.me;
        const people = (message.display_recipient as { id: number; email: string }[]).filter((u) => u.id !== me);
        this.mode.value = 'dm';
        this.to.value = (people.length > 0 ? people : (message.display_recipient as { email: string }[])).map((u) => u.email).join(', ');
      }
      if (this.#draftKey() !== before) this.content.value = '';
    });
    // Focused at once, so what is typed next goes into the box; a draft fills it only while empty.
    this.focusRequest.value += 1;
    return this.#restoreDraft();
  }

  /** The person's edit clears the error shown; an upload's (`keepError`) leaves it. */
  setContent(text: string, { keepError = false } = {}): void {
    this.content.value = text;
    if (!keepError) this.error.value = null;
    if (this.#draftTimer) clearTimeout(this.#draftTimer);
    this.#draftTimer = setTimeout(() => void this.#saveDraft(), 300);
  }

  /**
   * A new message yet to be addressed, holding `text` (upstream's Forward): no channel or topic
   * chosen; the conversation the box was in keeps its draft.
   */
  forward(text: string): void {
    batch(() => {
      this.startNew();
      this.setContent(text);
    });
    this.focusRequest.value += 1;
  }

  /**
   * A new channel message with no channel chosen yet (upstream's `c` where the view is of no one
   * channel); the conversation the box was in keeps its draft.
   */
  startNew(): void {
    const before = this.#draftKey();
    this.#keepDraft(before);
    batch(() => {
      this.mode.value = 'channel';
      this.channelId.value = null;
      this.topic.value = '';
      this.content.value = '';
    });
  }

  /** Puts `text` after the message's words, a space between (upstream's `@` reply: the mention at the caret). */
  append(text: string): void {
    const current = this.content.value;
    this.setContent(current && !/\s$/.test(current) ? `${current} ${text}` : `${current}${text}`);
    this.focusRequest.value += 1;
  }

  insert(text: string): void {
    const current = this.content.value;
    this.setContent(current && !current.endsWith('\n') ? `${current}\n${text}` : `${current}${text}`);
    this.focusRequest.value += 1;
  }

  /** The API's `type` and `to` for the current recipient, or the reason there is none. */
  recipient(): Recipient | { error: string } {
    if (this.mode.value === 'channel') {
      if (this.channelId.value === null) return { error: 'Choose a channel.' };
      return { type: 'stream', to: this.channelId.value, topic: this.topic.value.trim() };
    }
    const { ids, unknown } = resolveRecipients(this.to.value, this.#session.realm.users.value.values());
    if (unknown.length > 0) return { error: `Unknown recipient: ${unknown.join(', ')}` };
    if (ids.length === 0) return { error: 'Choose at least one recipient.' };
    return { type: 'direct', to: ids };
  }

  /** The conversation the box writes to, as a narrow (a topic, or the DM's people besides me); null while it has no recipient. */
  conversation(): ConversationNarrow | null {
    const recipient = this.recipient();
    if ('error' in recipient) return null;
    return recipient.type === 'stream'
      ? { kind: 'channel', channelId: recipient.to, topic: recipient.topic }
      : { kind: 'dm', userIds: dmParticipants(recipient.to, this.#session.me) };
  }

  /** Takes a scheduled message back into the box: its recipient and text, to change and schedule again. */
  editScheduled(message: ScheduledMessage): void {
    batch(() => {
      this.#setRecipient(message.type === 'stream' ? { type: 'stream', to: message.to as number, topic: message.topic ?? '' } : { type: 'direct', to: message.to as number[] });
      this.content.value = message.content;
      this.scheduledId.value = message.scheduled_message_id;
      this.error.value = null;
    });
    this.focusRequest.value += 1;
  }

  /** Schedules the message for `at` (seconds), or reschedules the one being edited. */
  schedule(at: number): Promise<boolean> {
    const id = this.scheduledId.value;
    return this.send({ scheduled_delivery_timestamp: at }, id === null ? 'POST' : 'PATCH', id === null ? '/scheduled_messages' : `/scheduled_messages/${id}`);
  }

  /** Sends; a refusal keeps the text and shows the server's message. Returns whether it went. */
  async send(extra: Record<string, unknown> = {}, method: 'POST' | 'PATCH' = 'POST', path = '/messages'): Promise<boolean> {
    const recipient = this.recipient();
    if ('error' in recipient) {
      this.error.value = recipient.error;
      return false;
    }
    if (!this.content.value.trim()) {
      this.error.value = 'The message is empty.';
      return false;
    }
    if (this.uploads.inFlight.value.length > 0) {
      this.error.value = UPLOAD_IN_PROGRESS;
      return false;
    }
    const max = this.#session.realm.maxMessageLength.value;
    // The server would cut it short; upstream's app refuses to send it instead.
    if (characterCount(this.content.value) > max) {
      this.error.value = messageTooLong(max);
      return false;
    }
    this.sending.value = true;
    this.error.value = null;
    const sent = this.content.value;
    try {
      const answer = await this.#session.api.call<{ id?: unknown }>(method, path, { ...recipient, content: sent, ...extra });
      // Sent now instead of later: the scheduled copy goes, as upstream's "Send now" does.
      const replaced = path === '/messages' ? this.scheduledId.value : null;
      if (replaced !== null) await this.#session.api.delete(`/scheduled_messages/${replaced}`).catch(() => undefined);
      const key = this.#draftKey();
      // What was typed while the send was on its way stays: only the text sent leaves the box.
      const rest = typedSince(sent, this.content.value);
      batch(() => {
        this.content.value = rest;
        this.sending.value = false;
        this.scheduledId.value = null;
        if (path === '/messages' && typeof answer.id === 'number') this.lastSentId.value = answer.id;
      });
      if (this.#draftTimer) clearTimeout(this.#draftTimer);
      if (key) await this.#writeDraft(key, rest.trim() ? rest : null);
      return true;
    } catch (error) {
      batch(() => {
        this.error.value = error instanceof ApiFailure || error instanceof Error ? error.message : String(error);
        this.sending.value = false;
      });
      return false;
    }
  }

  /**
   * A message the server gave back (a send the hub refused, rolled back on a replica): into an
   * empty box with its recipient (or after the box's text when the box is on its conversation),
   * else appended to its conversation's draft, as upstream's web app keeps a failed send in
   * Drafts. Returns where its text went: the box, or the draft of the conversation named.
   */
  giveBack(message: RefusedSend): 'box' | { draftOf: string } | null {
    if (!message.content.trim()) return null;
    const recipient = this.#recipientOf(message);
    if (!this.content.value.trim()) {
      batch(() => {
        if (recipient) this.#setRecipient(recipient);
        this.content.value = message.content;
      });
      this.focusRequest.value += 1;
      return 'box';
    }
    if (!recipient) return null;
    const key = this.#keyOf(recipient);
    if (key === this.#draftKey()) {
      this.setContent(`${this.content.value.trimEnd()}\n\n${message.content}`);
      return 'box';
    }
    void get<string>(key)
      .then((draft) => this.#writeDraft(key, draft?.trim() ? `${draft}\n\n${message.content}` : message.content))
      .catch(() => undefined);
    return {
      draftOf: this.#session.realm.conversationName(recipient.type === 'stream' ? { channelId: recipient.to, topic: recipient.topic } : { userIds: recipient.to }),
    };
  }

  /** The box's recipient fields set to `recipient` (a DM's people by their emails, as one types them). */
  #setRecipient(recipient: Recipient): void {
    if (recipient.type === 'stream') {
      this.mode.value = 'channel';
      this.channelId.value = recipient.to;
      this.topic.value = recipient.topic;
    } else {
      this.mode.value = 'dm';
      this.to.value = recipient.to.map((id) => this.#session.realm.users.value.get(id)?.email ?? String(id)).join(', ');
    }
  }

  /** A given-back message's recipient as the box holds one (`to` as the API takes it: an id, a name, a JSON list). */
  #recipientOf(message: RefusedSend): Recipient | null {
    const realm = this.#session.realm;
    let to: unknown = message.to;
    try {
      to = JSON.parse(message.to);
    } catch {
      // A bare name or a comma-separated list, as the API also takes.
    }
    if (message.type === 'stream' || message.type === 'channel') {
      const id = typeof to === 'number' ? to : [...realm.channels.value.values()].find((channel) => channel.name === String(to))?.stream_id;
      return id === undefined ? null : { type: 'stream', to: id, topic: message.topic ?? '' };
    }
    const entries = Array.isArray(to) ? to : String(to).split(',');
    const users = [...realm.users.value.values()];
    const ids = entries.map((entry) => (typeof entry === 'number' ? entry : users.find((user) => user.email === String(entry).trim())?.user_id));
    return ids.length > 0 && ids.every((id) => id !== undefined) ? { type: 'direct', to: ids as number[] } : null;
  }

  /** Every draft kept for this login, by conversation. */
  async #storedDrafts(): Promise<KeptDraft[]> {
    const stored = await entries<IDBValidKey, unknown>().catch(() => [] as [IDBValidKey, unknown][]);
    return stored.flatMap(([key, text]) => this.#draftOf(key, text) ?? []);
  }

  /** A stored entry as a draft of this login, or null (another login's, another kind of entry, an empty text). */
  #draftOf(key: IDBValidKey, text: unknown): KeptDraft | null {
    if (typeof key !== 'string' || !key.startsWith(this.#draftPrefix) || typeof text !== 'string' || !text.trim()) return null;
    const rest = key.slice(this.#draftPrefix.length);
    const topic = /^topic:(\d+):(.*)$/s.exec(rest);
    if (topic) return { key, channelId: Number(topic[1]), topicKey: topic[2], text };
    const dm = /^dm:(\d+(?:,\d+)*)$/.exec(rest);
    return dm ? { key, userIds: dm[1].split(',').map(Number), text } : null;
  }

  deleteDraft(key: string): Promise<void> {
    return this.#writeDraft(key, null);
  }

  /**
   * Keeps `text` as the draft under `key` (null: none), and the list those who show it read
   * changed to match (in key order, as it is read), without reading every draft again per keystroke pause.
   */
  async #writeDraft(key: string, text: string | null): Promise<void> {
    // A draft the browser would not store is not listed either: Restore could not read it back.
    const stored = await (text === null ? del(key) : set(key, text)).then(
      () => true,
      () => false,
    );
    if (!stored) return;
    const kept = this.kept.peek();
    if (kept === null) return this.#readDrafts();
    const draft = text === null ? null : this.#draftOf(key, text);
    this.kept.value = [...kept.filter((other) => other.key !== key), ...(draft ? [draft] : [])].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  /** The newest read wins: an older one finishing later is dropped. */
  async #readDrafts(): Promise<void> {
    const read = ++this.#draftReads;
    const drafts = await this.#storedDrafts();
    if (read === this.#draftReads) this.kept.value = drafts;
  }

  #draftKey(): string | null {
    const recipient = this.recipient();
    return 'error' in recipient ? null : this.#keyOf(recipient);
  }

  #keyOf(recipient: Recipient): string {
    return recipient.type === 'stream'
      ? `${this.#draftPrefix}topic:${recipient.to}:${recipient.topic.toLowerCase()}`
      : `${this.#draftPrefix}dm:${sortedIds(recipient.to)}`;
  }

  /** Leaving a conversation: its unsent text stays as its draft. */
  #keepDraft(key: string | null): void {
    if (this.#draftTimer) clearTimeout(this.#draftTimer);
    if (key && this.content.value.trim()) void this.#writeDraft(key, this.content.value);
  }

  async #saveDraft(): Promise<void> {
    const key = this.#draftKey();
    if (!key) return;
    await this.#writeDraft(key, this.content.value.trim() ? this.content.value : null);
  }

  /** Switching conversations: the new one's draft, if any, replaces an empty box. */
  async #restoreDraft(): Promise<void> {
    const key = this.#draftKey();
    if (!key || this.content.value.trim()) return;
    const draft = await get<string>(key).catch(() => undefined);
    if (draft && !this.content.value.trim()) this.content.value = draft;
  }
}

/** A draft as kept: its conversation (a channel's topic, lower-cased as topics match, or a DM's people) and its text. */
export type KeptDraft = { key: string; text: string } & ({ channelId: number; topicKey: string } | { userIds: number[] });

/** The box's text once `sent` has gone: what was typed after it, or all of it when the sent text itself was changed meanwhile. */
function typedSince(sent: string, now: string): string {
  if (now === sent) return '';
  return now.startsWith(sent) ? now.slice(sent.length).replace(/^\s+/, '') : now;
}
