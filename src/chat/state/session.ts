import { batch, signal } from '@preact/signals';
import { type ApiClient, ApiFailure } from '../api/api-client.ts';
import type { InitialState, Message, Reaction, ServerEvent, Submessage } from '../api/wire-types.ts';
import { type Narrow, narrowKey } from '../narrow/narrow.ts';
import { type Anchor, fetchFirstPage, MessageList } from './message-list.ts';
import { PresenceState } from './presence.ts';
import { RealmState } from './realm-state.ts';
import { ServerEmojiData } from './server-emoji.ts';
import { type SyncRefusal, SyncState } from './sync-state.ts';
import { dmKeyOf, type UnreadEntry } from './unread-index.ts';

/** What the app tells the server it understands (upstream's client capabilities). */
const CLIENT_CAPABILITIES = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: true,
  user_settings_object: true,
  empty_topic_name: true,
  simplified_presence_events: true,
};

/** Message lists kept for quick switching back; the rest are dropped, oldest first. */
const KEPT_LISTS = 12;
/** After a failed poll (server restarting, network gone), wait before the next, growing to the cap. */
const RETRY_MS = [500, 1000, 2000, 5000, 10000];

export type Connection = 'connected' | 'reconnecting';

/**
 * One logged-in user's view of the server: the initial state from /register, the message
 * lists, and the long-poll loop that keeps both current. After BAD_EVENT_QUEUE_ID (the server
 * restarted or dropped the queue) it registers again and refetches what is on screen.
 */
export class ChatSession {
  readonly api: ApiClient;
  readonly realm: RealmState;
  readonly presence: PresenceState;
  readonly emoji: ServerEmojiData;
  /** The server's sync with a hub, when it is a replica. */
  readonly sync: SyncState;
  readonly connection = signal<Connection>('connected');
  /** The server no longer knows this login (the realm was replaced, the user deactivated): log in again. */
  readonly expired = signal(false);
  /** Bumps at each re-registration: views refetch what they show. */
  readonly generation = signal(0);
  readonly #lists = new Map<string, MessageList>();
  /** The newest messages of every conversation, for Recent conversations; kept apart from the lists' cache, which drops lists. */
  readonly recent: MessageList;
  readonly #abort = new AbortController();
  #queue: { id: string; lastEventId: number };
  readonly #pendingRead = new Set<number>();
  #readTimer: ReturnType<typeof setTimeout> | null = null;

  private constructor(api: ApiClient, initial: InitialState) {
    this.api = api;
    this.realm = new RealmState(initial);
    this.presence = new PresenceState(initial);
    this.emoji = new ServerEmojiData(api, initial.server_emoji_data_url);
    this.sync = new SyncState(api, (refusal) => this.onSyncRefused(refusal));
    this.recent = new MessageList(api, this.me, { kind: 'all' });
    this.#queue = { id: initial.queue_id, lastEventId: initial.last_event_id };
  }

  /** Called with each event received, for the API log panel. */
  onEvent: (event: ServerEvent) => void = () => {};

  /** Called with each new message once the state has taken it (desktop notifications). */
  onMessage: (message: Message) => void = () => {};

  /** Called once for each change the hub refused while this session runs (the replica rolled it back). */
  onSyncRefused: (refusal: SyncRefusal) => void = () => {};

  /**
   * Registers the event queue and, in the same moment, fetches the first view's messages
   * (`first`): one round trip before the first draw instead of two.
   */
  static async start(api: ApiClient, first?: { narrow: Narrow; anchor: Anchor }): Promise<ChatSession> {
    const registering = register(api);
    const firstPage = first && fetchFirstPage(api, first.narrow, first.anchor);
    // A failed page shows in its list; a failed registration is the caller's to report.
    firstPage?.catch(() => undefined);
    const session = new ChatSession(api, await registering);
    if (first && firstPage) void session.list(first.narrow).load(first.anchor, firstPage);
    void session.sync.load();
    void session.#poll();
    void session.#reportPresence();
    return session;
  }

  get me(): number {
    return this.realm.me;
  }

  /** The narrow's list, from the cache when it was shown before. */
  list(narrow: Narrow): MessageList {
    const key = narrowKey(narrow);
    let list = this.#lists.get(key);
    if (list) {
      this.#lists.delete(key);
    } else {
      list = new MessageList(this.api, this.me, narrow);
    }
    this.#lists.set(key, list);
    while (this.#lists.size > KEPT_LISTS) this.#lists.delete(this.#lists.keys().next().value as string);
    return list;
  }

  /** Every list events must keep current: the cached narrows' and Recent conversations'. */
  *#everyList(): Iterable<MessageList> {
    yield* this.#lists.values();
    yield this.recent;
  }

  stop(): void {
    this.#abort.abort();
    void this.api.delete('/events', { queue_id: this.#queue.id }).catch(() => undefined);
  }

  /** Marks messages read as they are seen, a batch at a time; the unread counts drop at once. */
  markRead(ids: number[]): void {
    const unread = ids.filter((id) => this.realm.unread.value.has(id) && !this.#pendingRead.has(id));
    if (unread.length === 0) return;
    for (const id of unread) this.#pendingRead.add(id);
    this.realm.unread.value = this.realm.unread.value.without(unread);
    this.#readTimer ??= setTimeout(() => void this.#flushRead(), 150);
  }

  async #flushRead(): Promise<void> {
    this.#readTimer = null;
    const ids = [...this.#pendingRead];
    this.#pendingRead.clear();
    await this.api.post('/messages/flags', { messages: ids, op: 'add', flag: 'read' }).catch(() => undefined);
  }

  async #poll(): Promise<void> {
    let failures = 0;
    while (!this.#abort.signal.aborted) {
      try {
        const answer = await this.api.get<{ events: ServerEvent[] }>(
          '/events',
          { queue_id: this.#queue.id, last_event_id: this.#queue.lastEventId },
          this.#abort.signal,
        );
        failures = 0;
        this.connection.value = 'connected';
        batch(() => {
          for (const event of answer.events) {
            this.#queue.lastEventId = Math.max(this.#queue.lastEventId, event.id);
            this.onEvent(event);
            this.#apply(event);
          }
        });
      } catch (error) {
        if (this.#abort.signal.aborted) return;
        if (error instanceof ApiFailure && error.code === 'BAD_EVENT_QUEUE_ID') {
          await this.#reregister();
          continue;
        }
        if (error instanceof ApiFailure && error.status === 401) {
          this.expired.value = true;
          return;
        }
        this.connection.value = 'reconnecting';
        await delay(RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]);
        failures += 1;
      }
    }
  }

  /**
   * Tells the server, once a ping interval, that this user is here: active while the tab is
   * shown, idle while hidden; at once when the tab is shown again, as upstream's web app reports
   * a return to activity.
   */
  async #reportPresence(): Promise<void> {
    const signal = this.#abort.signal;
    while (!signal.aborted) {
      const status = document.visibilityState === 'visible' ? 'active' : 'idle';
      await this.presence.report(this.api, status).catch(() => undefined);
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          document.removeEventListener('visibilitychange', shown);
          signal.removeEventListener('abort', done);
          resolve();
        };
        const shown = (): void => {
          if (document.visibilityState === 'visible') done();
        };
        const timer = setTimeout(done, this.presence.pingIntervalSeconds * 1000);
        document.addEventListener('visibilitychange', shown);
        signal.addEventListener('abort', done);
      });
    }
  }

  async #reregister(): Promise<void> {
    try {
      const initial = await register(this.api);
      this.#queue = { id: initial.queue_id, lastEventId: initial.last_event_id };
      batch(() => {
        this.realm.reset(initial);
        this.presence.reset(initial);
        for (const list of this.#everyList()) list.stale = true;
        this.generation.value += 1;
        this.connection.value = 'connected';
      });
      void this.sync.load(true);
    } catch (error) {
      if (error instanceof ApiFailure && error.status === 401) {
        this.expired.value = true;
        this.#abort.abort();
        return;
      }
      this.connection.value = 'reconnecting';
      await delay(RETRY_MS.at(-1) ?? 10000);
    }
  }

  #apply(event: ServerEvent): void {
    switch (event.type) {
      case 'message':
        this.#message({ ...(event.message as Message), flags: (event.flags as string[]) ?? [] });
        break;
      case 'update_message':
        this.#updateMessage(event);
        break;
      case 'delete_message':
        this.#deleteMessages(new Set((event.message_ids as number[] | undefined) ?? [event.message_id as number]));
        this.realm.noteTopicChange(event.stream_id as number | undefined);
        break;
      case 'reaction':
        this.#reaction(event);
        break;
      case 'submessage':
        this.#submessage(event);
        break;
      case 'update_message_flags':
        this.#flags(event);
        break;
      case 'presence':
        this.presence.applyEvent({ presences: event.presences, server_timestamp: event.server_timestamp });
        break;
      case 'offline_realm_sync':
        this.sync.applyEvent(event);
        break;
      default:
        this.realm.applyEvent(event);
    }
  }

  #message(message: Message): void {
    if (!message.flags.includes('read')) this.realm.unread.value = this.realm.unread.value.with(message, this.me);
    if (message.type === 'private') this.realm.noteDm(dmKeyOf(message, this.me).split(',').map(Number), message.id);
    else this.realm.noteTopicChange(message.stream_id);
    // The sender stopped typing: the message is what they typed.
    this.realm.typing.value = this.realm.typing.value.filter((entry) => entry.userId !== message.sender_id);
    for (const list of this.#everyList()) void list.add(message);
    this.onMessage(message);
  }

  #updateMessage(event: ServerEvent): void {
    const ids = new Set<number>((event.message_ids as number[] | undefined) ?? [event.message_id as number]);
    const newTopic = (event.subject ?? event.topic) as string | undefined;
    const newChannel = event.new_stream_id as number | undefined;
    const moved = newTopic !== undefined || newChannel !== undefined;
    const channelName = newChannel === undefined ? undefined : this.realm.channelName(newChannel);
    for (const list of this.#everyList()) {
      list.update(ids, (message) => {
        const updated = { ...message };
        // A search's highlights were of the old text: the new one shows plain.
        if (message.id === event.message_id && typeof event.rendered_content === 'string') {
          updated.content = event.rendered_content;
          updated.last_edit_timestamp = event.edit_timestamp as number;
          delete updated.match_content;
        }
        if (moved && !event.rendering_only) updated.last_moved_timestamp = event.edit_timestamp as number;
        if (newTopic !== undefined) {
          updated.subject = newTopic;
          delete updated.match_subject;
        }
        if (newChannel !== undefined) {
          updated.stream_id = newChannel;
          updated.display_recipient = channelName ?? updated.display_recipient;
        }
        return updated;
      });
      // Messages moved in from elsewhere are not in this list yet: fetch it anew when next shown.
      if (moved && (list.narrow.kind === 'channel' || list.narrow.kind === 'terms')) list.stale = true;
    }
    if (moved) {
      this.realm.unread.value = this.realm.unread.value.moved(ids, newChannel, newTopic);
      this.realm.noteTopicChange(event.stream_id as number | undefined, newChannel);
    }
  }

  #deleteMessages(ids: Set<number>): void {
    for (const list of this.#everyList()) list.remove(ids);
    this.realm.unread.value = this.realm.unread.value.without(ids);
  }

  /** A widget's change: added to the message wherever it is listed, once. */
  #submessage(event: ServerEvent): void {
    const submessage: Submessage = {
      id: event.submessage_id as number,
      message_id: event.message_id as number,
      sender_id: event.sender_id as number,
      msg_type: event.msg_type as string,
      content: event.content as string,
    };
    const ids = new Set([submessage.message_id]);
    for (const list of this.#everyList()) {
      list.update(ids, (message) =>
        message.submessages?.some((known) => known.id === submessage.id) ? message : { ...message, submessages: [...(message.submessages ?? []), submessage] },
      );
    }
  }

  #reaction(event: ServerEvent): void {
    const reaction: Reaction = {
      emoji_name: event.emoji_name as string,
      emoji_code: event.emoji_code as string,
      reaction_type: event.reaction_type as string,
      user_id: event.user_id as number,
    };
    const same = (r: Reaction) => r.user_id === reaction.user_id && r.emoji_code === reaction.emoji_code && r.reaction_type === reaction.reaction_type;
    const ids = new Set([event.message_id as number]);
    for (const list of this.#everyList()) {
      list.update(ids, (message) => ({
        ...message,
        reactions: event.op === 'add' ? [...message.reactions.filter((r) => !same(r)), reaction] : message.reactions.filter((r) => !same(r)),
      }));
    }
  }

  #flags(event: ServerEvent): void {
    const flag = event.flag as string;
    const ids = new Set(event.messages as number[]);
    const add = event.op === 'add';
    if (flag === 'read') {
      if (add) this.realm.unread.value = this.realm.unread.value.without(ids);
      else this.#restoreUnread(ids, event.message_details as Record<string, Record<string, unknown>> | undefined);
    }
    if (flag === 'starred') {
      const starred = new Set(this.realm.starred.value);
      for (const id of ids) {
        if (add) starred.add(id);
        else starred.delete(id);
      }
      this.realm.starred.value = starred;
    }
    for (const list of this.#everyList()) {
      list.update(ids, (message) => ({
        ...message,
        flags: add ? [...new Set([...message.flags, flag])] : message.flags.filter((f) => f !== flag),
      }));
      // A message starred elsewhere belongs in the starred view: fetch it when shown.
      if (add && flag === 'starred' && list.narrow.kind === 'starred') list.stale = true;
    }
  }

  /** Marked unread again: the event's details say where each message lives. */
  #restoreUnread(ids: Set<number>, details: Record<string, Record<string, unknown>> | undefined): void {
    const restored: [number, UnreadEntry][] = [];
    for (const id of ids) {
      const detail = details?.[String(id)];
      if (!detail) continue;
      const mentioned = Boolean(detail.mentioned);
      if (detail.type === 'stream') {
        restored.push([id, { channelId: detail.stream_id as number, topicKey: String(detail.topic).toLowerCase(), topic: String(detail.topic), mentioned }]);
      } else {
        const others = ((detail.user_ids as number[] | undefined) ?? []).filter((u) => u !== this.me).sort((a, b) => a - b);
        restored.push([id, { dmKey: (others.length > 0 ? others : [this.me]).join(','), mentioned }]);
      }
    }
    this.realm.unread.value = this.realm.unread.value.withEntries(restored);
  }
}

async function register(api: ApiClient): Promise<InitialState> {
  return api.post<InitialState>('/register', {
    apply_markdown: true,
    client_gravatar: false,
    slim_presence: true,
    client_capabilities: CLIENT_CAPABILITIES,
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
