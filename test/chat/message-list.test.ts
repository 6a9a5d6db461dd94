import { describe, expect, test } from 'vitest';
import type { ApiClient } from '../../src/chat/api/api-client.ts';
import type { Message } from '../../src/chat/api/wire-types.ts';
import { DM_FEED, type Narrow } from '../../src/chat/narrow/narrow.ts';
import { MessageList, type MessagesPage, messageInNarrow, withoutMutedDms } from '../../src/chat/state/message-list.ts';

function message(id: number): Message {
  return {
    id,
    sender_id: 8,
    sender_full_name: 'Olivia Park',
    sender_email: 'olivia@lakeside.test',
    avatar_url: null,
    content: `<p>message ${id}</p>`,
    timestamp: 1_761_922_920 + id,
    type: 'stream',
    stream_id: 2,
    display_recipient: 'general',
    subject: 'lunch',
    reactions: [],
    flags: ['read'],
    is_me_message: false,
  };
}

/** A server that answers `GET /messages` from the given pages, in order, and records the queries. */
function serverAnswering(...pages: MessagesPage[]): { api: ApiClient; queries: Record<string, unknown>[] } {
  const queries: Record<string, unknown>[] = [];
  const api = {
    get: async (path: string, params: Record<string, unknown>) => {
      if (path !== '/messages') throw new Error(`unexpected GET ${path}`);
      queries.push(params);
      const page = pages.shift();
      if (!page) throw new Error('no more pages');
      return page;
    },
  } as unknown as ApiClient;
  return { api, queries };
}

const page = (ids: number[], foundNewest: boolean): MessagesPage => ({ messages: ids.map(message), anchor: ids[0] ?? 0, found_oldest: true, found_newest: foundNewest });

describe('a message list opened with a page fetched beside the queue registration', () => {
  test('fetches once past its newest message and adds what arrived between the two', async () => {
    const { api, queries } = serverAnswering(page([3], true));
    const list = new MessageList(api, 8, { kind: 'all' });

    await list.load('first_unread', Promise.resolve(page([1, 2], true)));

    expect(list.messages.value.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(list.foundNewest.value).toBe(true);
    expect(queries).toEqual([expect.objectContaining({ anchor: '2', num_before: 0, num_after: 100, include_anchor: false })]);
  });

  test('leaves the newest end open when more arrived in between than one page', async () => {
    const { api } = serverAnswering(page([3, 4], false));
    const list = new MessageList(api, 8, { kind: 'all' });

    await list.load('first_unread', Promise.resolve(page([1, 2], true)));

    expect(list.messages.value.map((m) => m.id)).toEqual([1, 2, 3, 4]);
    expect(list.foundNewest.value).toBe(false);
  });

  test('does not fetch again when the page did not reach the newest messages', async () => {
    const { api, queries } = serverAnswering();
    const list = new MessageList(api, 8, { kind: 'all' });

    await list.load('first_unread', Promise.resolve(page([1, 2], false)));

    expect(list.messages.value.map((m) => m.id)).toEqual([1, 2]);
    expect(queries).toEqual([]);
  });

  test('opened by itself, asks for the page around its anchor only', async () => {
    const { api, queries } = serverAnswering(page([5, 6], true));
    const list = new MessageList(api, 8, { kind: 'all' });

    await list.load('first_unread');

    expect(list.messages.value.map((m) => m.id)).toEqual([5, 6]);
    expect(queries).toEqual([expect.objectContaining({ anchor: 'first_unread', num_before: 50, num_after: 50, include_anchor: true })]);
  });
});

describe('a message list opened while a message arrives', () => {
  test('fetches past its first page once it is in, so the message the page predates is shown', async () => {
    let answerFirst: (page: MessagesPage) => void = () => {};
    const queries: Record<string, unknown>[] = [];
    const api = {
      get: (_path: string, params: Record<string, unknown>) => {
        queries.push(params);
        return queries.length === 1 ? new Promise<MessagesPage>((resolve) => (answerFirst = resolve)) : Promise.resolve(page([3], true));
      },
    } as unknown as ApiClient;
    const list = new MessageList(api, 8, { kind: 'all' });

    const loading = list.load('newest');
    await list.add(message(3));
    answerFirst(page([1, 2], true));
    await loading;

    expect(list.messages.value.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(queries[1]).toEqual(expect.objectContaining({ anchor: '2', num_before: 0, num_after: 100, include_anchor: false }));
  });
});


describe('what a view shows of its messages when someone is muted', () => {
  const dm = (id: number, senderId: number, others: number[]): Message => ({
    ...message(id),
    sender_id: senderId,
    type: 'private',
    stream_id: undefined,
    display_recipient: [8, ...others].map((userId) => ({ id: userId, email: `${userId}@lakeside.test`, full_name: `User ${userId}` })),
  });
  const messages = [message(1), dm(2, 9, [9]), dm(3, 8, [9]), dm(4, 9, [9, 10]), dm(5, 10, [10])];
  const ids = (shown: Message[]) => shown.map((m) => m.id);

  test('one-on-one DMs with the muted person leave every view, either way; channel and group messages stay', () => {
    expect(ids(withoutMutedDms(messages, { kind: 'all' }, new Set([9]), 8))).toEqual([1, 4, 5]);
  });

  test('their own DM narrow keeps them, and nothing is filtered when no one is muted', () => {
    expect(ids(withoutMutedDms(messages, { kind: 'dm', userIds: [9] }, new Set([9]), 8))).toEqual([1, 2, 3, 4, 5]);
    expect(withoutMutedDms(messages, { kind: 'all' }, new Set(), 8)).toBe(messages);
  });
});

describe('whether a new message belongs to the view shown, told without the server where it can be', () => {
  const dm = (id: number, others: number[]): Message => ({
    ...message(id),
    type: 'private',
    stream_id: undefined,
    display_recipient: [8, ...others].map((userId) => ({ id: userId, email: `${userId}@lakeside.test`, full_name: `User ${userId}` })),
  });
  const inView = (narrow: Narrow, shown: Message) => messageInNarrow(narrow, shown, 8);

  test('a channel, its topic in any case, and the combined feed', () => {
    expect(inView({ kind: 'channel', channelId: 2 }, message(1))).toBe(true);
    expect(inView({ kind: 'channel', channelId: 2, topic: 'LUNCH' }, message(1))).toBe(true);
    expect(inView({ kind: 'channel', channelId: 2, topic: 'dinner' }, message(1))).toBe(false);
    expect(inView({ kind: 'channel', channelId: 3 }, message(1))).toBe(false);
    expect(inView({ kind: 'all' }, dm(2, [9]))).toBe(true);
  });

  test('a DM by its people, whatever their order; the DM feed holds every DM and no channel message', () => {
    expect(inView({ kind: 'dm', userIds: [9, 10] }, dm(2, [10, 9]))).toBe(true);
    expect(inView({ kind: 'dm', userIds: [9] }, dm(2, [9, 10]))).toBe(false);
    expect(inView(DM_FEED, dm(2, [9]))).toBe(true);
    expect(inView(DM_FEED, message(1))).toBe(false);
  });

  test('Starred and Mentions by the flags; a search is the server’s to tell', () => {
    expect(inView({ kind: 'starred' }, { ...message(1), flags: ['starred'] })).toBe(true);
    expect(inView({ kind: 'starred' }, message(1))).toBe(false);
    expect(inView({ kind: 'mentioned' }, { ...message(1), flags: ['wildcard_mentioned'] })).toBe(true);
    expect(inView({ kind: 'search', query: 'lunch' }, message(1))).toBeUndefined();
  });
});
