import { beforeAll, expect, it } from 'vitest';
import { caseSuite, IDS } from './harness.ts';

const NEWEST = 10_000_000_000_000_000;
const idsOf = (body: Record<string, any>): number[] => body.messages.map((m: { id: number }) => m.id);

export const messagesFetchCases = caseSuite('GET /messages', (api) => {
  /** Ten messages mark sends to general > window, all unread for mia. */
  let w: number[];
  const inW = [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'window' }];
  beforeAll(async () => {
    w = [];
    for (let i = 0; i < 10; i++) {
      const { body } = await api.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 'window', content: `message ${i}` });
      w.push(body.id);
    }
  });

  it('returns the newest messages before the newest anchor, with found_newest', async () => {
    const { status, body } = await api.as('mia').get('/messages', { anchor: 'newest', num_before: 3, num_after: 0, narrow: inW });
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual(w.slice(7));
    expect(body).toMatchObject({
      result: 'success',
      msg: '',
      anchor: NEWEST,
      found_anchor: false,
      found_newest: true,
      found_oldest: false,
      history_limited: false,
    });
  });

  it('returns the oldest messages after the oldest anchor, with found_oldest', async () => {
    const { body } = await api.as('mia').get('/messages', { anchor: 'oldest', num_before: 0, num_after: 3, narrow: inW });
    expect(idsOf(body)).toEqual(w.slice(0, 3));
    expect(body).toMatchObject({ anchor: 0, found_anchor: false, found_oldest: true, found_newest: false });
  });

  it('returns both sides of an integer anchor, including it', async () => {
    const { body } = await api.as('mia').get('/messages', { anchor: String(w[4]), num_before: 2, num_after: 2, narrow: inW });
    expect(idsOf(body)).toEqual(w.slice(2, 7));
    expect(body).toMatchObject({ anchor: w[4], found_anchor: true, found_oldest: false, found_newest: false });
  });

  it('leaves out the anchor when include_anchor is false at an end of the range', async () => {
    const { body } = await api.as('mia').get('/messages', { anchor: w[4], num_before: 2, num_after: 0, include_anchor: false, narrow: inW });
    expect(idsOf(body)).toEqual(w.slice(2, 4));
    expect(body.found_anchor).toBe(false);
  });

  it('anchors first_unread at the oldest unread message in the narrow', async () => {
    const { body } = await api.as('mia').get('/messages', { anchor: 'first_unread', num_before: 1, num_after: 1, narrow: inW });
    expect(idsOf(body)).toEqual([w[0], w[1]]);
    expect(body).toMatchObject({ anchor: w[0], found_anchor: true, found_oldest: true });
  });

  it('behaves as newest for first_unread when nothing in the narrow is unread', async () => {
    const { body } = await api.as('mia').get('/messages', {
      anchor: 'first_unread',
      num_before: 5,
      num_after: 5,
      narrow: [{ operator: 'topic', operand: 'welcome' }],
    });
    expect(idsOf(body)).toEqual([1, 2]);
    expect(body).toMatchObject({ anchor: NEWEST, found_anchor: false, found_newest: true, found_oldest: true });
  });

  it('returns complete message objects with HTML, or Markdown when apply_markdown is false', async () => {
    const html = await api.as('mark').get('/messages', { anchor: 1, num_before: 0, num_after: 0 });
    expect(html.body.messages[0]).toMatchObject({
      id: 1,
      sender_id: IDS.olivia,
      sender_full_name: 'Olivia Owner',
      sender_email: 'olivia@zulip.test',
      type: 'stream',
      stream_id: IDS.general,
      display_recipient: 'general',
      subject: 'welcome',
      timestamp: 1767225000,
      content: '<p>Welcome <strong>everyone</strong></p>',
      content_type: 'text/html',
      reactions: [],
      flags: ['read'],
    });
    const raw = await api.as('mark').get('/messages', { anchor: 1, num_before: 0, num_after: 0, apply_markdown: false });
    expect(raw.body.messages[0]).toMatchObject({ content: 'Welcome **everyone**', content_type: 'text/x-markdown' });
  });

  it('gives each message the flags of the viewer', async () => {
    const { body } = await api.as('olivia').get('/messages', { anchor: 'oldest', num_before: 0, num_after: 2 });
    expect(body.messages.map((m: { flags: string[] }) => m.flags)).toEqual([['read'], ['read', 'mentioned']]);
  });

  it('narrows by sender, by direct messages and by search', async () => {
    const bySender = await api.as('mark').get('/messages', { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [{ operator: 'sender', operand: 'olivia@zulip.test' }] });
    expect(idsOf(bySender.body)).toEqual([1, 4]);
    const dms = await api.as('mark').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'is', operand: 'dm' }] });
    expect(idsOf(dms.body)).toEqual([4]);
    const search = await api.as('mark').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'search', operand: 'plans' }] });
    expect(idsOf(search.body)).toEqual([3]);
    expect(search.body.messages[0]).toMatchObject({ match_content: '<p>secret <span class="highlight">plans</span></p>' });
  });

  it('accepts the legacy narrow of [operator, operand] pairs', async () => {
    const { body } = await api.as('mia').get('/messages', { anchor: 'newest', num_before: 2, num_after: 0, narrow: [['stream', 'general'], ['topic', 'window']] });
    expect(idsOf(body)).toEqual(w.slice(8));
  });

  it('hides a private channel from a non-subscriber', async () => {
    const { body } = await api.as('mia').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0 });
    expect(idsOf(body)).not.toContain(3);
    expect(idsOf(body)).not.toContain(4);
  });

  it('returns the accessible messages among message_ids, without an anchor', async () => {
    const { body } = await api.as('mia').get('/messages', { message_ids: [w[1], 3, 4, 999, 1] });
    expect(idsOf(body)).toEqual([1, w[1]]);
    expect(body).not.toHaveProperty('anchor');
  });

  it('refuses a missing or unknown anchor, missing counts and a bad narrow', async () => {
    expect((await api.as('mark').get('/messages', { num_before: 1, num_after: 1 })).body).toEqual({ result: 'error', msg: "Missing 'anchor' argument.", code: 'BAD_REQUEST' });
    expect((await api.as('mark').get('/messages', { anchor: 'latest', num_before: 1, num_after: 1 })).body).toEqual({ result: 'error', msg: 'Invalid anchor', code: 'BAD_REQUEST' });
    const noBefore = await api.as('mark').get('/messages', { anchor: 'newest', num_after: 1 });
    expect(noBefore.status).toBe(400);
    expect(noBefore.body).toEqual({ result: 'error', msg: "Missing 'num_before' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'num_before' });
    expect((await api.as('mark').get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow: '[{' })).body).toEqual({ result: 'error', msg: 'narrow is not valid JSON', code: 'BAD_REQUEST' });
    expect((await api.as('mark').get('/messages', { anchor: 'newest', num_before: 4000, num_after: 1001 })).body.msg).toBe('Too many messages requested (maximum 5000).');
  });
});

export const messageByIdCases = caseSuite('GET /messages/{id} and /messages/matches_narrow', (api) => {
  it('returns one message with its raw Markdown and the viewer’s flags', async () => {
    const { status, body } = await api.as('mark').get('/messages/4');
    expect(status).toBe(200);
    expect(body.raw_content).toBe('a direct hello');
    expect(body.message).toMatchObject({
      id: 4,
      type: 'private',
      content: '<p>a direct hello</p>',
      flags: ['read'],
      display_recipient: [
        { id: IDS.olivia, email: 'olivia@zulip.test', full_name: 'Olivia Owner', is_mirror_dummy: false },
        { id: IDS.mark, email: 'mark@zulip.test', full_name: 'Mark Member', is_mirror_dummy: false },
      ],
    });
  });

  it('shows public channel history to a member who never received it as read and historical', async () => {
    const sent = await api.as('mark').post('/messages', { type: 'channel', to: 'design', topic: 'ideas', content: 'a design idea' });
    const { status, body } = await api.as('mia').get(`/messages/${sent.body.id}`);
    expect(status).toBe(200);
    expect(body.message.flags).toEqual(['read', 'historical']);
  });

  it('refuses invisible, unknown and malformed ids', async () => {
    for (const [user, path] of [['mia', '/messages/3'], ['mia', '/messages/4'], ['mark', '/messages/999']] as const) {
      const { status, body } = await api.as(user).get(path);
      expect({ path, status, body }).toEqual({ path, status: 400, body: { result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' } });
    }
    expect((await api.as('mark').get('/messages/abc')).body).toEqual({ result: 'error', msg: 'Invalid message_id', code: 'BAD_REQUEST' });
  });

  it('tells which messages match a narrow, highlighting search words', async () => {
    const { status, body } = await api.as('mark').get('/messages/matches_narrow', {
      msg_ids: [1, 2, 3, 4],
      narrow: [{ operator: 'search', operand: 'welcome' }],
    });
    expect(status).toBe(200);
    expect(Object.keys(body.messages)).toEqual(['1', '2']);
    expect(body.messages['1']).toEqual({
      match_content: '<p><span class="highlight">Welcome</span> <strong>everyone</strong></p>',
      match_subject: '<span class="highlight">welcome</span>',
    });
  });
});
