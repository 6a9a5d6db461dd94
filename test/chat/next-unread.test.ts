import { describe, expect, it } from 'vitest';
import type { Inbox } from '../../src/chat/state/inbox.ts';
import { followedTopicsOf, nextUnreadDm, nextUnreadTopic } from '../../src/chat/state/next-unread.ts';
import { TOPIC_FOLLOWED, TOPIC_MUTED } from '../../src/chat/state/realm-state.ts';

const tally = { count: 1, mentioned: false, newestId: 1 };
/** Channels 2 and 5 have unread topics; the sidebar orders channels by id here. */
const inbox: Inbox = {
  dms: [
    { ...tally, userIds: [9] },
    { ...tally, userIds: [4, 7] },
    { ...tally, userIds: [3] },
  ],
  channels: [
    { channelId: 2, topics: [{ ...tally, topic: 'Launch party' }, { ...tally, topic: 'standup' }] },
    { channelId: 5, topics: [{ ...tally, topic: 'Release 2.4' }] },
  ],
};
const byId = (a: number, b: number): number => a - b;

describe('n: the next unread topic', () => {
  it('follows the shown topic in the Inbox order, across channels, wrapping round', () => {
    expect(nextUnreadTopic(inbox, { channelId: 2, topic: 'Launch party' }, byId)).toEqual({ channelId: 2, topic: 'standup' });
    expect(nextUnreadTopic(inbox, { channelId: 2, topic: 'STANDUP' }, byId)).toEqual({ channelId: 5, topic: 'Release 2.4' });
    expect(nextUnreadTopic(inbox, { channelId: 5, topic: 'Release 2.4' }, byId)).toEqual({ channelId: 2, topic: 'Launch party' });
  });

  it('from a channel or a read topic goes to that channel’s first unread topic, else the next channel’s, else the first', () => {
    expect(nextUnreadTopic(inbox, { channelId: 5 }, byId)).toEqual({ channelId: 5, topic: 'Release 2.4' });
    expect(nextUnreadTopic(inbox, { channelId: 3, topic: 'read already' }, byId)).toEqual({ channelId: 5, topic: 'Release 2.4' });
    expect(nextUnreadTopic(inbox, { channelId: 7 }, byId)).toEqual({ channelId: 2, topic: 'Launch party' });
    expect(nextUnreadTopic(inbox, null, byId)).toEqual({ channelId: 2, topic: 'Launch party' });
  });

  it('has no answer when the shown topic is the only unread one, or none is', () => {
    const one: Inbox = { dms: [], channels: [{ channelId: 5, topics: [{ ...tally, topic: 'Release 2.4' }] }] };
    expect(nextUnreadTopic(one, { channelId: 5, topic: 'release 2.4' }, byId)).toBeNull();
    expect(nextUnreadTopic({ dms: [], channels: [] }, null, byId)).toBeNull();
  });
});

describe('p: the next unread DM conversation', () => {
  it('follows the shown conversation, most recent first, wrapping round; from elsewhere the most recent', () => {
    expect(nextUnreadDm(inbox, [9])).toEqual([4, 7]);
    expect(nextUnreadDm(inbox, [7, 4])).toEqual([3]);
    expect(nextUnreadDm(inbox, [3])).toEqual([9]);
    expect(nextUnreadDm(inbox, [8])).toEqual([9]);
    expect(nextUnreadDm(inbox, null)).toEqual([9]);
  });

  it('has no answer when the shown conversation is the only unread one, or none is', () => {
    expect(nextUnreadDm({ dms: [{ ...tally, userIds: [9] }], channels: [] }, [9])).toBeNull();
    expect(nextUnreadDm({ dms: [], channels: [] }, null)).toBeNull();
  });
});

describe('Shift+N: the next unread followed topic', () => {
  const policies: Record<string, number> = { '2:standup': TOPIC_FOLLOWED, '2:launch party': TOPIC_MUTED, '5:release 2.4': TOPIC_FOLLOWED };
  const realm = { subscriptions: new Map(), topicPolicy: (channelId: number, topic: string) => policies[`${channelId}:${topic.toLowerCase()}`] ?? 0 };

  it('keeps the followed topics alone, and channels with none go', () => {
    const followed = followedTopicsOf(inbox, realm);
    expect(followed.channels.map(({ channelId, topics }) => [channelId, topics.map(({ topic }) => topic)])).toEqual([
      [2, ['standup']],
      [5, ['Release 2.4']],
    ]);
    expect(nextUnreadTopic(followed, { channelId: 2, topic: 'standup' }, byId)).toEqual({ channelId: 5, topic: 'Release 2.4' });
    expect(followedTopicsOf(inbox, { ...realm, topicPolicy: () => 0 }).channels).toEqual([]);
  });
});
