import { batch, signal } from '@preact/signals';
import type { ApiClient } from '../api/api-client.ts';
import type { Message } from '../api/wire-types.ts';
import { conversationInNarrow, type Narrow, narrowTerms } from '../narrow/narrow.ts';
import { conversationOf } from './unread-index.ts';

/** Messages fetched per request when scrolling; upstream's web app asks for a few hundred. */
const PAGE = 100;

export type Anchor = number | 'first_unread' | 'newest' | 'oldest';

export interface MessagesPage {
  messages: Message[];
  anchor: number;
  found_oldest: boolean;
  found_newest: boolean;
}

/** The page a list opens with, around `anchor`: what {@link MessageList.load} asks for. */
export function fetchFirstPage(api: ApiClient, narrow: Narrow, anchor: Anchor): Promise<MessagesPage> {
  return fetchMessages(api, narrow, anchor, 50, 50, true);
}

/** The newest `count` messages of a narrow: what Recent conversations opens with. */
export function fetchNewestPage(api: ApiClient, narrow: Narrow, count: number): Promise<MessagesPage> {
  return fetchMessages(api, narrow, 'newest', count, 0, true);
}

function fetchMessages(api: ApiClient, narrow: Narrow, anchor: Anchor, before: number, after: number, includeAnchor: boolean): Promise<MessagesPage> {
  return api.get<MessagesPage>('/messages', {
    anchor: String(anchor),
    num_before: before,
    num_after: after,
    include_anchor: includeAnchor,
    narrow: narrowTerms(narrow),
    apply_markdown: true,
    client_gravatar: false,
  });
}

/**
 * Whether a message belongs to a narrow, when that can be decided without the server (a search
 * or other operators cannot: undefined): by its flags for Starred and Mentions, else by its
 * conversation.
 */
export function messageInNarrow(narrow: Narrow, message: Message, me: number): boolean | undefined {
  if (narrow.kind === 'starred') return message.flags.includes('starred');
  if (narrow.kind === 'mentioned') return message.flags.includes('mentioned') || message.flags.includes('wildcard_mentioned');
  return conversationInNarrow(conversationOf(message, me), narrow);
}

/**
 * A narrow's messages as its view shows them: without one-on-one DMs with someone I muted, except
 * in that DM's own narrow (upstream's messages_filtered_for_user_mutes). Their channel and group
 * messages stay, hidden behind a notice by the row.
 */
export function withoutMutedDms(messages: Message[], narrow: Narrow, muted: ReadonlySet<number>, me: number): Message[] {
  if (muted.size === 0 || (narrow.kind === 'dm' && narrow.userIds.length === 1)) return messages;
  return messages.filter((message) => {
    if (message.type !== 'private') return true;
    const others = (message.display_recipient as { id: number }[]).filter((user) => user.id !== me);
    return !(others.length === 1 && muted.has(others[0].id));
  });
}

/**
 * The loaded part of one narrow's history, in id order, grown both ways by scrolling
 * (anchors, as the API pages) and kept current by events.
 */
export class MessageList {
  readonly narrow: Narrow;
  readonly messages = signal<Message[]>([]);
  readonly foundOldest = signal(false);
  readonly foundNewest = signal(false);
  readonly loading = signal<'initial' | 'older' | 'newer' | null>(null);
  readonly error = signal<string | null>(null);
  /** The message the view opens at: the anchor's answer (first unread, a linked message). */
  readonly anchorId = signal<number | null>(null);
  /** Messages that were unread when this list showed them: their marker fades instead of vanishing. */
  readonly readHere = signal<ReadonlySet<number>>(new Set());
  /**
   * Messages shown are not marked read (after "Mark as unread from here", as upstream's web app):
   * until the view is opened again.
   */
  readonly readingPaused = signal(false);
  /** Messages may have moved in without an event we can match: fetch anew when shown. */
  stale = false;
  readonly #api: ApiClient;
  readonly #me: number;
  /** A new message came while the first page was on its way: that page may predate it. */
  #arrivedWhileLoading = false;

  constructor(api: ApiClient, me: number, narrow: Narrow) {
    this.#api = api;
    this.#me = me;
    this.narrow = narrow;
  }

  get loaded(): boolean {
    return this.messages.value.length > 0 || this.foundOldest.value || this.foundNewest.value;
  }

  /**
   * Opens the list around `anchor`. `prefetched` is that page fetched beside the event queue's
   * registration (the session's first view): a message sent between the two would be in
   * neither, so the list then fetches once past its newest message; so it does when a message
   * arrived while the page was on its way (a narrow just opened, a message sent at once).
   */
  async load(anchor: Anchor = 'first_unread', prefetched?: Promise<MessagesPage>): Promise<void> {
    this.stale = false;
    this.#arrivedWhileLoading = false;
    this.loading.value = 'initial';
    try {
      const answer = await (prefetched ?? fetchFirstPage(this.#api, this.narrow, anchor));
      batch(() => {
        this.messages.value = answer.messages;
        this.foundOldest.value = answer.found_oldest;
        this.foundNewest.value = answer.found_newest;
        this.anchorId.value = answer.messages.some((m) => m.id === answer.anchor) ? answer.anchor : (answer.messages.at(-1)?.id ?? null);
        this.error.value = null;
      });
    } catch (error) {
      this.error.value = error instanceof Error ? error.message : String(error);
    } finally {
      this.loading.value = null;
    }
    if ((prefetched || this.#arrivedWhileLoading) && this.foundNewest.peek()) await this.#catchUp();
  }

  async #catchUp(): Promise<void> {
    const last = this.messages.peek().at(-1);
    const answer = await this.#fetch(last?.id ?? 0, 0, PAGE, false).catch(() => null);
    if (!answer) return;
    batch(() => {
      if (answer.messages.length > 0) this.messages.value = mergeById(this.messages.value, answer.messages);
      if (!answer.found_newest) this.foundNewest.value = false;
    });
  }

  async loadOlder(count = PAGE): Promise<void> {
    const first = this.messages.value[0];
    if (this.loading.value || this.foundOldest.value || !first) return;
    this.loading.value = 'older';
    try {
      const answer = await this.#fetch(first.id, count, 0, false);
      batch(() => {
        this.messages.value = mergeById(answer.messages, this.messages.value);
        this.foundOldest.value = answer.found_oldest;
      });
    } catch (error) {
      this.error.value = error instanceof Error ? error.message : String(error);
    } finally {
      this.loading.value = null;
    }
  }

  async loadNewer(): Promise<void> {
    const last = this.messages.value.at(-1);
    if (this.loading.value || this.foundNewest.value || !last) return;
    this.loading.value = 'newer';
    try {
      const answer = await this.#fetch(last.id, 0, PAGE, false);
      batch(() => {
        this.messages.value = mergeById(this.messages.value, answer.messages);
        this.foundNewest.value = answer.found_newest;
      });
    } catch (error) {
      this.error.value = error instanceof Error ? error.message : String(error);
    } finally {
      this.loading.value = null;
    }
  }

  /** Whether a message belongs here, when the narrow can be decided without the server. */
  matchesLocally(message: Message): boolean | undefined {
    return messageInNarrow(this.narrow, message, this.#me);
  }

  /** A new message: appended when this list already reaches the newest messages. */
  async add(message: Message): Promise<void> {
    // Not dropped: the list fetches past its first page once that page is in.
    if (this.loading.peek() === 'initial') this.#arrivedWhileLoading = true;
    if (!this.foundNewest.value) return;
    let matches = this.matchesLocally(message);
    if (matches === undefined) {
      const answer = await this.#api
        .get<{ messages: Record<string, unknown> }>('/messages/matches_narrow', { msg_ids: [message.id], narrow: narrowTerms(this.narrow) })
        .catch(() => ({ messages: {} }));
      matches = String(message.id) in answer.messages;
    }
    if (!matches) return;
    const current = this.messages.value;
    // New messages come last: append without re-sorting a long list.
    const last = current.at(-1);
    this.messages.value = !last || last.id < message.id ? [...current, message] : mergeById(current, [message]);
  }

  /** Changes messages in place; drops those that no longer belong (moved out, unstarred). */
  update(ids: ReadonlySet<number>, change: (message: Message) => Message): void {
    let changed = false;
    const next: Message[] = [];
    for (const message of this.messages.value) {
      if (!ids.has(message.id)) {
        next.push(message);
        continue;
      }
      changed = true;
      const updated = change(message);
      if (this.matchesLocally(updated) !== false) next.push(updated);
    }
    if (changed) this.messages.value = next;
  }

  remove(ids: ReadonlySet<number>): void {
    const next = this.messages.value.filter((message) => !ids.has(message.id));
    if (next.length !== this.messages.value.length) this.messages.value = next;
  }

  #fetch(anchor: Anchor, before: number, after: number, includeAnchor: boolean): Promise<MessagesPage> {
    return fetchMessages(this.#api, this.narrow, anchor, before, after, includeAnchor);
  }
}

/** Two id-ordered runs joined, a message present in both taken from the second. */
function mergeById(first: Message[], second: Message[]): Message[] {
  const byId = new Map<number, Message>();
  for (const message of first) byId.set(message.id, message);
  for (const message of second) byId.set(message.id, message);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
