import { describe, expect, test } from 'vitest';
import type { Message, Subscription } from '../../src/chat/api/wire-types.ts';
import { buildInbox, tallyOf } from '../../src/chat/state/inbox.ts';
import { TOPIC_FOLLOWED, TOPIC_MUTED } from '../../src/chat/state/realm-state.ts';
import { recentConversations } from '../../src/chat/state/recent-conversations.ts';
import { UnreadIndex } from '../../src/chat/state/unread-index.ts';

const ME = 8;

function subscription(stream_id: number, name: string, extra: Partial<Subscription> = {}): Subscription {
  return { stream_id, name, is_muted: false, pin_to_top: false, color: '#fff', ...extra } as Subscription;
}

const subscriptions = new Map([
  [1, subscription(1, 'zebra')],
  [2, subscription(2, 'alpha')],
  [3, subscription(3, 'pinned-last-by-name', { pin_to_top: true })],
  [4, subscription(4, 'muted', { is_muted: true })],
]);

function unread(): UnreadIndex {
  return UnreadIndex.fromRegister(
    {
      streams: [
        { stream_id: 1, topic: 'Lunch', unread_message_ids: [10, 11] },
        { stream_id: 1, topic: 'Deploys', unread_message_ids: [30] },
        { stream_id: 2, topic: 'Noise', unread_message_ids: [12] },
        { stream_id: 2, topic: 'Quiet', unread_message_ids: [13] },
        { stream_id: 3, topic: 'Pinned', unread_message_ids: [5] },
        { stream_id: 4, topic: 'Hidden', unread_message_ids: [40] },
        { stream_id: 4, topic: 'Followed', unread_message_ids: [41] },
      ],
      pms: [{ other_user_id: 9, unread_message_ids: [20] }],
      huddles: [{ user_ids_string: '8,9,15', unread_message_ids: [25, 26] }],
      mentions: [11, 26],
    } as never,
    ME,
  );
}

describe('the Inbox', () => {
  const policies: Record<string, number> = { '2:noise': TOPIC_MUTED, '4:followed': TOPIC_FOLLOWED };
  const realm = { subscriptions, topicPolicy: (id: number, topic: string) => policies[`${id}:${topic.toLowerCase()}`] ?? 0 };

  test('lists DMs newest first, then channels pinned first and by name, their topics newest first, with counts and mentions', () => {
    const inbox = buildInbox(unread(), realm);

    expect(inbox.dms).toEqual([
      { userIds: [9, 15], count: 2, mentioned: true, newestId: 26 },
      { userIds: [9], count: 1, mentioned: false, newestId: 20 },
    ]);
    expect(inbox.channels.map((channel) => [channel.channelId, tallyOf(channel.topics).count, tallyOf(channel.topics).mentioned, channel.topics.map((topic) => topic.topic)])).toEqual([
      [3, 1, false, ['Pinned']],
      [2, 1, false, ['Quiet']],
      [4, 1, false, ['Followed']],
      [1, 3, true, ['Deploys', 'Lunch']],
    ]);
  });

  test('leaves out muted topics and a muted channel’s topics unless followed', () => {
    const topics = buildInbox(unread(), realm).channels.flatMap((channel) => channel.topics.map((topic) => topic.topic));

    expect(topics).not.toContain('Noise');
    expect(topics).not.toContain('Hidden');
    expect(topics).toContain('Followed');
  });

  test('names a topic as its newest arrival or move writes it', () => {
    const moved = unread().moved([10, 11], undefined, 'Lunch plans');

    expect(buildInbox(moved, realm).channels.find((channel) => channel.channelId === 1)?.topics.map((topic) => [topic.topic, topic.count])).toEqual([
      ['Deploys', 1],
      ['Lunch plans', 2],
    ]);
  });
});

function message(id: number, sender: number, where: { channel: number; topic: string } | { dm: number[] }): Message {
  const common = { id, sender_id: sender, sender_full_name: '', sender_email: '', avatar_url: null, content: '', timestamp: 1_761_922_920 + id, reactions: [], flags: [], is_me_message: false };
  if ('dm' in where) {
    return { ...common, type: 'private', subject: '', display_recipient: where.dm.map((userId) => ({ id: userId, full_name: '', email: '' })) } as Message;
  }
  return { ...common, type: 'stream', stream_id: where.channel, subject: where.topic, display_recipient: 'general' } as Message;
}

describe('Recent conversations', () => {
  test('groups messages by conversation, the most recently active first, with their senders newest first', () => {
    const rows = recentConversations(
      [
        message(1, 9, { channel: 1, topic: 'Lunch' }),
        message(2, ME, { channel: 1, topic: 'lunch' }),
        message(3, 15, { dm: [ME, 15] }),
        message(4, 9, { channel: 2, topic: 'Lunch' }),
        message(5, 15, { channel: 1, topic: 'LUNCH' }),
      ],
      ME,
    );

    expect(rows.map((row) => [row.key, row.newest.id, 'topic' in row ? row.topic : row.userIds, row.senderIds, row.participated])).toEqual([
      ['topic:1:lunch', 5, 'LUNCH', [15, ME, 9], true],
      ['topic:2:lunch', 4, 'Lunch', [9], false],
      ['dm:15', 3, [15], [15], false],
    ]);
  });

  test('a note to self is a conversation with me alone', () => {
    expect(recentConversations([message(7, ME, { dm: [ME] })], ME).map((row) => [row.key, 'userIds' in row && row.userIds])).toEqual([['dm:8', [ME]]]);
  });
});
