import { describe, expect, test } from 'vitest';
import type { Message, Subscription } from '../../src/chat/api/wire-types.ts';
import { deservesNotification, type NotifyContext } from '../../src/chat/state/notify-decision.ts';
import { TOPIC_FOLLOWED, TOPIC_MUTED } from '../../src/chat/state/realm-state.ts';

const ME = 8;
const MARCUS = 9;

function message(extra: Partial<Message>): Message {
  return { id: 1, sender_id: MARCUS, type: 'stream', stream_id: 2, subject: 'lunch', flags: [], content: '', ...extra } as Message;
}

function context(extra: { settings?: Record<string, unknown>; sub?: Partial<Subscription>; policy?: number } = {}): NotifyContext {
  return {
    me: ME,
    settings: extra.settings ?? {},
    subscription: () => ({ stream_id: 2, is_muted: false, desktop_notifications: null, ...extra.sub }) as Subscription,
    topicPolicy: () => extra.policy ?? 0,
  };
}

describe('which new messages notify, by upstream’s defaults and settings', () => {
  test('a DM and a mention do; a plain channel message does not, unless the channel or the stream default asks', () => {
    expect(deservesNotification(message({ type: 'private', stream_id: undefined }), context())).toBe(true);
    expect(deservesNotification(message({ flags: ['mentioned'] }), context())).toBe(true);
    expect(deservesNotification(message({}), context())).toBe(false);
    expect(deservesNotification(message({}), context({ sub: { desktop_notifications: true } }))).toBe(true);
    expect(deservesNotification(message({}), context({ settings: { enable_stream_desktop_notifications: true } }))).toBe(true);
    expect(deservesNotification(message({}), context({ settings: { enable_stream_desktop_notifications: true }, sub: { desktop_notifications: false } }))).toBe(false);
  });

  test('never my own, nor one already read, nor one in a muted topic; DMs and mentions not when turned off', () => {
    expect(deservesNotification(message({ type: 'private', sender_id: ME }), context())).toBe(false);
    expect(deservesNotification(message({ type: 'private', flags: ['read'] }), context())).toBe(false);
    expect(deservesNotification(message({ flags: ['mentioned'] }), context({ policy: TOPIC_MUTED }))).toBe(false);
    expect(deservesNotification(message({ type: 'private' }), context({ settings: { enable_desktop_notifications: false } }))).toBe(false);
  });

  test('a followed topic does by default, even in a muted channel', () => {
    expect(deservesNotification(message({}), context({ policy: TOPIC_FOLLOWED, sub: { is_muted: true } }))).toBe(true);
    expect(deservesNotification(message({}), context({ policy: TOPIC_FOLLOWED, settings: { enable_followed_topic_desktop_notifications: false } }))).toBe(false);
  });
});
