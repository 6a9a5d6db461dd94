import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
/** Ids of the ten messages mark sends to general > w in `beforeEach` (5..14). */
let w: number[];

beforeEach(async () => {
  realm = await createTestRealm();
  w = [];
  for (let i = 0; i < 10; i++) {
    const { body } = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 'w', content: `message ${i}` });
    w.push(body.id);
  }
});
afterEach(() => realm.engine.close());

const NEWEST = 10_000_000_000_000_000;
const inW = [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'w' }];
const idsOf = (body: Record<string, any>): number[] => body.messages.map((m: { id: number }) => m.id);

describe('GET /messages anchors and windows', () => {

  it('reports found_oldest when fewer messages exist than were asked for', async () => {
    const { body } = await realm.as('mia').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: inW });
    expect(idsOf(body)).toEqual(w);
    expect(body.found_oldest).toBe(true);
  });


  it('returns messages on both sides of an integer anchor, including the anchor', async () => {
    const { body } = await realm.as('mia').get('/messages', { anchor: String(w[4]), num_before: 2, num_after: 2, narrow: inW });
    expect(idsOf(body)).toEqual(w.slice(2, 7));
    expect(body).toMatchObject({ anchor: w[4], found_anchor: true, found_oldest: false, found_newest: false });
  });

  it('accepts an integer anchor sent as a JSON number', async () => {
    const { body } = await realm.as('mia').get('/messages', { anchor: w[9], num_before: 1, num_after: 5, narrow: inW });
    expect(idsOf(body)).toEqual(w.slice(8));
    expect(body).toMatchObject({ found_anchor: true, found_newest: true, found_oldest: false });
  });

  it('leaves out the anchor when include_anchor is false at an end of the range', async () => {
    const before = await realm.as('mia').get('/messages', { anchor: w[4], num_before: 2, num_after: 0, include_anchor: false, narrow: inW });
    expect(idsOf(before.body)).toEqual(w.slice(2, 4));
    expect(before.body.found_anchor).toBe(false);
    const after = await realm.as('mia').get('/messages', { anchor: w[4], num_before: 0, num_after: 2, include_anchor: false, narrow: inW });
    expect(idsOf(after.body)).toEqual(w.slice(5, 7));
  });

  it('reports found_anchor false when the anchor does not match the narrow', async () => {
    const { body } = await realm.as('mark').get('/messages', { anchor: 3, num_before: 1, num_after: 1, narrow: inW });
    expect(idsOf(body)).toEqual([w[0]]);
    expect(body).toMatchObject({ anchor: 3, found_anchor: false, found_oldest: true, found_newest: false });
  });

  it('returns only the anchor when both counts are zero', async () => {
    const { body } = await realm.as('mia').get('/messages', { anchor: w[3], num_before: 0, num_after: 0, narrow: inW });
    expect(idsOf(body)).toEqual([w[3]]);
    expect(body).toMatchObject({ found_anchor: true, found_oldest: false, found_newest: false });
  });

  it('clamps a negative anchor to 0 and a huge one to the largest anchor', async () => {
    const low = await realm.as('mia').get('/messages', { anchor: '-5', num_before: 0, num_after: 1, narrow: inW });
    expect(low.body).toMatchObject({ anchor: 0, found_oldest: true });
    expect(idsOf(low.body)).toEqual([w[0]]);
    const high = await realm.as('mia').get('/messages', { anchor: '99999999999999999999', num_before: 1, num_after: 0, narrow: inW });
    expect(high.body).toMatchObject({ anchor: NEWEST, found_newest: true });
    expect(idsOf(high.body)).toEqual([w[9]]);
  });

  it('anchors first_unread at the oldest unread matching message', async () => {
    const { body } = await realm.as('mia').get('/messages', { anchor: 'first_unread', num_before: 1, num_after: 1 });
    expect(idsOf(body)).toEqual([2, w[0], w[1]]);
    expect(body).toMatchObject({ anchor: w[0], found_anchor: true, found_oldest: false, found_newest: false });
  });

  it('treats use_first_unread_anchor as the first_unread anchor', async () => {
    const { body } = await realm.as('mia').get('/messages', { use_first_unread_anchor: true, num_before: 0, num_after: 1 });
    expect(body.anchor).toBe(w[0]);
    expect(idsOf(body)).toEqual([w[0], w[1]]);
  });

  it('behaves as newest when nothing matching is unread', async () => {
    const narrow = [{ operator: 'topic', operand: 'welcome' }];
    const { body } = await realm.as('mia').get('/messages', { anchor: 'first_unread', num_before: 5, num_after: 5, narrow });
    expect(idsOf(body)).toEqual([1, 2]);
    expect(body).toMatchObject({ anchor: NEWEST, found_anchor: false, found_newest: true, found_oldest: true });
  });

  it('gives each message the flags of the viewer', async () => {
    const { body } = await realm.as('olivia').get('/messages', { anchor: 'oldest', num_before: 0, num_after: 2 });
    expect(body.messages.map((m: { flags: string[] }) => m.flags)).toEqual([['read'], ['read', 'mentioned']]);
    const mia = await realm.as('mia').get('/messages', { anchor: w[0], num_before: 0, num_after: 0 });
    expect(mia.body.messages[0].flags).toEqual([]);
  });

  it('returns complete message objects with HTML content by default', async () => {
    const { body } = await realm.as('mark').get('/messages', { anchor: 1, num_before: 0, num_after: 0 });
    expect(body.messages[0]).toMatchObject({
      id: 1,
      sender_id: IDS.olivia,
      sender_full_name: 'Olivia Owner',
      type: 'stream',
      stream_id: IDS.general,
      display_recipient: 'general',
      subject: 'welcome',
      content: '<p>Welcome <strong>everyone</strong></p>',
      content_type: 'text/html',
      reactions: [],
      flags: ['read'],
    });
  });

  it('returns the Markdown source when apply_markdown is false', async () => {
    const { body } = await realm.as('mark').get('/messages', { anchor: 1, num_before: 0, num_after: 0, apply_markdown: false });
    expect(body.messages[0]).toMatchObject({ content: 'Welcome **everyone**', content_type: 'text/x-markdown' });
  });

  it('shows the empty topic as the display name unless allow_empty_topic_name is true', async () => {
    const sent = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: '', content: 'no topic' });
    const shown = await realm.as('mark').get('/messages', { anchor: sent.body.id, num_before: 0, num_after: 0 });
    const display = (await realm.engine.realm()).empty_topic_display_name;
    expect(shown.body.messages[0].subject).toBe(display);
    const raw = await realm.as('mark').get('/messages', { anchor: sent.body.id, num_before: 0, num_after: 0, allow_empty_topic_name: true });
    expect(raw.body.messages[0].subject).toBe('');
  });
});

describe('GET /messages parameter errors', () => {
  it('requires an anchor', async () => {
    const { status, body } = await realm.as('mark').get('/messages', { num_before: 1, num_after: 1 });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: "Missing 'anchor' argument.", code: 'BAD_REQUEST' });
  });

  it('refuses an anchor that is not a number or a known word', async () => {
    const { status, body } = await realm.as('mark').get('/messages', { anchor: 'latest', num_before: 1, num_after: 1 });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'Invalid anchor', code: 'BAD_REQUEST' });
  });

  it('requires num_before and num_after without message_ids', async () => {
    const { status, body } = await realm.as('mark').get('/messages', { anchor: 'newest', num_after: 1 });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: "Missing 'num_before' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'num_before' });
    const after = await realm.as('mark').get('/messages', { anchor: 'newest', num_before: 1 });
    expect(after.body.var_name).toBe('num_after');
  });

  it('refuses negative counts', async () => {
    const { status, body } = await realm.as('mark').get('/messages', { anchor: 'newest', num_before: -1, num_after: 0 });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'num_before is too small', code: 'BAD_REQUEST' });
  });

  it('refuses more than 5000 messages in one request', async () => {
    const { status, body } = await realm.as('mark').get('/messages', { anchor: 'newest', num_before: 4000, num_after: 1001 });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'Too many messages requested (maximum 5000).', code: 'BAD_REQUEST' });
    const exact = await realm.as('mark').get('/messages', { anchor: 'newest', num_before: 4000, num_after: 1000 });
    expect(exact.status).toBe(200);
  });

  it('refuses to exclude the anchor in the middle of the range', async () => {
    const { status, body } = await realm.as('mark').get('/messages', { anchor: 5, num_before: 1, num_after: 1, include_anchor: false });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'The anchor can only be excluded at an end of the range', code: 'BAD_REQUEST' });
  });

  it('refuses a narrow that is not valid JSON', async () => {
    const { status, body } = await realm.as('mark').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: '[{' });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'narrow is not valid JSON', code: 'BAD_REQUEST' });
  });
});

describe('GET /messages with message_ids', () => {
  it('returns the existing accessible messages among the ids, without an anchor', async () => {
    const { status, body } = await realm.as('mia').get('/messages', { message_ids: [w[1], 3, 4, 999, 1] });
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual([1, w[1]]);
    expect(body).not.toHaveProperty('anchor');
    expect(body).toMatchObject({ found_anchor: false, found_oldest: false, found_newest: false, history_limited: false });
  });

  it('filters the ids by the narrow', async () => {
    const { body } = await realm.as('mark').get('/messages', { message_ids: [1, 3, 4, w[0]], narrow: [{ operator: 'is', operand: 'dm' }] });
    expect(idsOf(body)).toEqual([4]);
  });

  it('refuses range parameters alongside message_ids', async () => {
    const parameters = 'num_before, num_after, anchor, message_ids, include_anchor, use_first_unread_anchor';
    for (const extra of [{ anchor: 'newest' }, { num_before: 0 }, { num_after: 1 }, { include_anchor: true }, { use_first_unread_anchor: true }]) {
      const { status, body } = await realm.as('mark').get('/messages', { message_ids: [1], ...extra });
      expect(status).toBe(400);
      expect(body).toEqual({ result: 'error', msg: `Unsupported parameter combination: ${parameters}`, code: 'BAD_REQUEST', parameters });
    }
  });

  it('refuses more than 5000 ids', async () => {
    const ids = Array.from({ length: 5001 }, (_, i) => i + 1);
    const { status, body } = await realm.as('mark').get('/messages', { message_ids: ids });
    expect(status).toBe(400);
    expect(body.msg).toBe('Too many messages requested (maximum 5000).');
  });
});

describe('GET /messages/{message_id}', () => {
  it('returns the message with its raw Markdown and the viewer flags', async () => {
    const { status, body } = await realm.as('mark').get('/messages/4');
    expect(status).toBe(200);
    expect(body.raw_content).toBe('a direct hello');
    expect(body.message).toMatchObject({
      id: 4,
      type: 'private',
      content: '<p>a direct hello</p>',
      content_type: 'text/html',
      flags: ['read'],
      display_recipient: [
        { id: IDS.olivia, email: 'olivia@zulip.test', full_name: 'Olivia Owner', is_mirror_dummy: false },
        { id: IDS.mark, email: 'mark@zulip.test', full_name: 'Mark Member', is_mirror_dummy: false },
      ],
    });
  });

  it('returns raw content in the message when apply_markdown is false', async () => {
    const { body } = await realm.as('mark').get('/messages/1', { apply_markdown: false });
    expect(body.message).toMatchObject({ content: 'Welcome **everyone**', content_type: 'text/x-markdown' });
  });

  it('shows public channel history to a member who never received it, as read and historical', async () => {
    const sent = await realm.as('mark').post('/messages', { type: 'channel', to: 'design', topic: 'ideas', content: 'a design idea' });
    const { status, body } = await realm.as('mia').get(`/messages/${sent.body.id}`);
    expect(status).toBe(200);
    expect(body.message.flags).toEqual(['read', 'historical']);
  });

  it('refuses messages the viewer may not see, and ids that do not exist', async () => {
    const sent = await realm.as('mark').post('/messages', { type: 'channel', to: 'design', topic: 'ideas', content: 'a design idea' });
    for (const [user, id] of [['mia', 3], ['mia', 4], ['gail', sent.body.id], ['mark', 999]] as const) {
      const { status, body } = await realm.as(user).get(`/messages/${id}`);
      expect(status).toBe(400);
      expect(body).toEqual({ result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
    }
  });

  it('refuses a message id that is not a number', async () => {
    const { status, body } = await realm.as('mark').get('/messages/abc');
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'Invalid message_id', code: 'BAD_REQUEST' });
  });
});

describe('GET /messages/matches_narrow', () => {
  it('returns the matching received messages keyed by id, with content and topic', async () => {
    const { status, body } = await realm.as('mark').get('/messages/matches_narrow', {
      msg_ids: [1, 2, 3, 4],
      narrow: [{ operator: 'channel', operand: 'general' }],
    });
    expect(status).toBe(200);
    expect(body.messages).toEqual({
      '1': { match_content: '<p>Welcome <strong>everyone</strong></p>', match_subject: 'welcome' },
      '2': expect.objectContaining({ match_subject: 'welcome' }),
    });
  });

  it('highlights search words', async () => {
    const { body } = await realm.as('mark').get('/messages/matches_narrow', {
      msg_ids: [1, 2, w[0]],
      narrow: [{ operator: 'search', operand: 'welcome' }],
    });
    expect(body.messages['1']).toEqual({
      match_content: '<p><span class="highlight">Welcome</span> <strong>everyone</strong></p>',
      match_subject: '<span class="highlight">welcome</span>',
    });
    expect(Object.keys(body.messages)).toEqual(['1', '2']);
  });

  it('leaves out messages the viewer did not receive', async () => {
    const sent = await realm.as('mark').post('/messages', { type: 'channel', to: 'design', topic: 'ideas', content: 'x' });
    const { body } = await realm.as('mia').get('/messages/matches_narrow', {
      msg_ids: [sent.body.id, 3, 4],
      narrow: [],
    });
    expect(body.messages).toEqual({});
  });

  it('requires msg_ids and narrow', async () => {
    const { status, body } = await realm.as('mark').get('/messages/matches_narrow', { narrow: [] });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: "Missing 'msg_ids' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'msg_ids' });
  });
});
