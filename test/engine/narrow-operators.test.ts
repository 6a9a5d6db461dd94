import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, TEST_SCENARIO, type TestRealm, type TestUser } from '../support/test-realm.ts';

const OLIVIA = 'olivia@zulip.test';
const MARK = 'mark@zulip.test';
const MIA = 'mia@zulip.test';

/**
 * The test realm plus: 5 a starred link with a reaction, 6 a resolved topic mentioning mark
 * (unread for him), 7 a group DM, 8 a DM from mia, 9 a note to self.
 */
const SCENARIO = {
  ...TEST_SCENARIO,
  messages: [
    ...TEST_SCENARIO.messages,
    { sender: OLIVIA, channel: 'general', topic: 'Links', content: 'see https://example.com', reactions: [{ user: MARK, emoji: 'smile' }], starred_by: [MARK] },
    { sender: MIA, channel: 'general', topic: '✔ done', content: 'resolved thing @**Mark Member**', unread_for: [MARK] },
    { sender: OLIVIA, to: [MARK, MIA], content: 'group hello' },
    { sender: MIA, to: [MARK], content: 'mia to mark' },
    { sender: MARK, to: [MARK], content: 'note to self' },
  ],
};

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm(SCENARIO);
});
afterEach(() => realm.engine.close());

async function matching(narrow: unknown, user: TestUser = 'mark'): Promise<number[]> {
  const { status, body } = await realm.as(user).get('/messages', { anchor: 'oldest', num_before: 0, num_after: 100, narrow });
  expect(body.msg).toBe('');
  expect(status).toBe(200);
  return body.messages.map((m: { id: number }) => m.id);
}

async function refusal(narrow: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  return realm.as('mark').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow });
}

const term = (operator: string, operand: unknown, negated?: boolean) => ({ operator, operand, ...(negated === undefined ? {} : { negated }) });

describe('narrow operators', () => {
  it('returns every received message for an empty narrow', async () => {
    expect(await matching([])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('selects a channel by name, id, the stream alias and the legacy pair form', async () => {
    expect(await matching([term('channel', 'general')])).toEqual([1, 2, 5, 6]);
    expect(await matching([term('channel', 'GENERAL')])).toEqual([1, 2, 5, 6]);
    expect(await matching([term('channel', IDS.general)])).toEqual([1, 2, 5, 6]);
    expect(await matching([term('stream', 'general')])).toEqual([1, 2, 5, 6]);
    expect(await matching([['stream', 'general']])).toEqual([1, 2, 5, 6]);
  });

  it('negates a term with negated: true', async () => {
    expect(await matching([term('channel', 'general', true)])).toEqual([3, 4, 7, 8, 9]);
  });

  it('matches topics case-insensitively, with or without a channel', async () => {
    expect(await matching([term('channel', 'general'), term('topic', 'WELCOME')])).toEqual([1, 2]);
    expect(await matching([term('topic', 'welcome')])).toEqual([1, 2]);
    expect(await matching([term('channel', 'general'), term('topic', 'welcome', true)])).toEqual([5, 6]);
  });

  it('reads the "(no topic)" and display-name operands as the empty topic', async () => {
    const sent = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: '', content: 'untitled' });
    const display = (await realm.engine.realm()).empty_topic_display_name;
    expect(await matching([term('channel', 'general'), term('topic', '(no topic)')])).toEqual([sent.body.id]);
    expect(await matching([term('channel', 'general'), term('topic', display)])).toEqual([sent.body.id]);
    expect(await matching([term('channel', 'general'), term('topic', '')])).toEqual([sent.body.id]);
  });

  it('selects the exact DM conversation by emails or ids, in both directions', async () => {
    expect(await matching([term('dm', OLIVIA)])).toEqual([4]);
    expect(await matching([term('dm', [IDS.olivia])])).toEqual([4]);
    expect(await matching([term('pm-with', OLIVIA)])).toEqual([4]);
    expect(await matching([term('dm', `${OLIVIA},${MIA}`)])).toEqual([7]);
    expect(await matching([term('dm', [IDS.mia, IDS.olivia, IDS.mark])])).toEqual([7]);
    expect(await matching([term('dm', [IDS.mark])])).toEqual([9]);
    expect(await matching([term('dm', [IDS.olivia])], 'olivia')).toEqual([]);
    expect(await matching([term('dm', [IDS.mark])], 'olivia')).toEqual([4]);
  });

  it('returns nothing for a conversation that does not exist', async () => {
    expect(await matching([term('dm', [IDS.adam])])).toEqual([]);
    expect(await matching([term('dm', [])])).toEqual([]);
  });

  it('selects every DM that includes a user with dm-including', async () => {
    expect(await matching([term('dm-including', MIA)])).toEqual([7, 8]);
    expect(await matching([term('dm-including', IDS.olivia)])).toEqual([4, 7]);
    expect(await matching([term('dm-including', IDS.mark)])).toEqual([4, 7, 8, 9]);
  });

  it('selects only group DMs with both users with group-pm-with', async () => {
    expect(await matching([term('group-pm-with', MIA)])).toEqual([7]);
  });

  it('selects a sender by email or id', async () => {
    expect(await matching([term('sender', OLIVIA)])).toEqual([1, 4, 5, 7]);
    expect(await matching([term('sender', IDS.mia)])).toEqual([6, 8]);
    expect(await matching([term('sender', IDS.mark, true), term('channel', 'general')])).toEqual([1, 5, 6]);
  });

  it('selects by the is: operands', async () => {
    expect(await matching([term('is', 'dm')])).toEqual([4, 7, 8, 9]);
    expect(await matching([term('is', 'private')])).toEqual([4, 7, 8, 9]);
    expect(await matching([term('is', 'starred')])).toEqual([5]);
    expect(await matching([term('is', 'unread')])).toEqual([6]);
    expect(await matching([term('is', 'unread', true), term('channel', 'general')])).toEqual([1, 2, 5]);
    expect(await matching([term('is', 'mentioned')])).toEqual([6]);
    expect(await matching([term('is', 'mentioned')], 'olivia')).toEqual([2]);
    expect(await matching([term('is', 'resolved')])).toEqual([6]);
    expect(await matching([term('is', 'alerted')])).toEqual([]);
  });

  it('selects followed topics with is:followed', async () => {
    const followed = await realm.as('mark').post('/user_topics', { stream_id: IDS.general, topic: 'Links', visibility_policy: 3 });
    expect(followed.body).toEqual({ result: 'success', msg: '' });
    expect(await matching([term('is', 'followed')])).toEqual([5]);
  });

  it('selects by the has: operands', async () => {
    expect(await matching([term('has', 'link')])).toEqual([5]);
    expect(await matching([term('has', 'reaction')])).toEqual([5]);
    expect(await matching([term('has', 'reaction', true), term('channel', 'general')])).toEqual([1, 2, 6]);
    expect(await matching([term('has', 'image')])).toEqual([]);
    expect(await matching([term('has', 'attachment')])).toEqual([]);
  });

  it('selects one message with id, only when the viewer may see it', async () => {
    expect(await matching([term('id', 5)])).toEqual([5]);
    expect(await matching([term('id', '5')])).toEqual([5]);
    expect(await matching([term('id', 3)], 'mia')).toEqual([]);
    expect(await matching([term('id', 5, true), term('channel', 'general')])).toEqual([1, 2, 6]);
  });

  it('does not filter on near or in:all', async () => {
    expect(await matching([term('near', '5')])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(await matching([term('in', 'all')])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('leaves out muted channels and muted topics with in:home', async () => {
    const muted = await realm.as('mark').post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: IDS.secret, property: 'is_muted', value: true }],
    });
    expect(muted.body).toEqual({ result: 'success', msg: '' });
    const mutedTopic = await realm.as('mark').post('/user_topics', { stream_id: IDS.general, topic: 'welcome', visibility_policy: 1 });
    expect(mutedTopic.body).toEqual({ result: 'success', msg: '' });
    expect(await matching([term('in', 'home')])).toEqual([4, 5, 6, 7, 8, 9]);
    // A narrow to the muted channel itself shows it.
    expect(await matching([term('channel', 'secret'), term('in', 'home')])).toEqual([3]);
  });

  it('searches all public channels with channels:public, history included', async () => {
    const sent = await realm.as('olivia').post('/messages', { type: 'channel', to: 'design', topic: 'd', content: 'design note' });
    expect(await matching([term('channels', 'public')], 'mia')).toEqual([1, 2, 5, 6, sent.body.id]);
    expect(await matching([term('streams', 'public')], 'mia')).toEqual([1, 2, 5, 6, sent.body.id]);
  });

  it('combines terms with AND', async () => {
    expect(await matching([term('channel', 'general'), term('sender', OLIVIA), term('has', 'link')])).toEqual([5]);
  });

  it('allows a negated channel term alongside a DM term', async () => {
    expect(await matching([term('channel', 'general', true), term('dm', OLIVIA)])).toEqual([4]);
  });
});

describe('narrow errors', () => {
  const badNarrow = (desc: string) => ({ result: 'error', msg: `Invalid narrow operator: ${desc}`, code: 'BAD_NARROW', desc });

  it('refuses unknown operators and operands', async () => {
    for (const [narrow, desc] of [
      [[term('foo', 'bar')], 'unknown operator foo'],
      [[term('is', 'foo')], "unknown 'is' operand foo"],
      [[term('has', 'foo')], "unknown 'has' operand foo"],
      [[term('in', 'foo')], "unknown 'in' operand foo"],
      [[term('channels', 'foo')], 'unknown channels operand foo'],
      [[term('id', 'abc')], 'Invalid message ID'],
    ] as const) {
      const { status, body } = await refusal(narrow);
      expect(status).toBe(400);
      expect(body).toEqual(badNarrow(desc));
    }
  });

  it('refuses unknown channels and users', async () => {
    for (const [narrow, desc] of [
      [[term('channel', 'nope')], 'unknown channel nope'],
      [[term('channel', 999)], 'unknown channel 999'],
      [[term('sender', 'nobody@zulip.test')], 'unknown user nobody@zulip.test'],
      [[term('dm-including', 999)], 'unknown user 999'],
      [[term('dm', 'nobody@zulip.test')], 'unknown user in nobody@zulip.test'],
      [[term('dm', [IDS.olivia, 999])], `unknown user in [${IDS.olivia}, 999]`],
    ] as const) {
      const { status, body } = await refusal(narrow);
      expect(status).toBe(400);
      expect(body).toEqual(badNarrow(desc));
    }
  });

  it('refuses a narrow that asks for both channel and direct messages', async () => {
    for (const narrow of [
      [term('channel', 'general'), term('dm', OLIVIA)],
      [term('topic', 'welcome'), term('is', 'dm')],
      [term('is', 'dm', true), term('dm-including', MIA)],
    ]) {
      const { status, body } = await refusal(narrow);
      expect(status).toBe(400);
      expect(body).toEqual(badNarrow('No message can be both a channel message and direct message'));
    }
  });

  it('refuses malformed narrow structures', async () => {
    for (const [narrow, msg] of [
      [{ operator: 'is' }, 'narrow is not a list'],
      [[['channel']], 'Invalid narrow[0]: element is not a string pair'],
      [[term('channel', 'general'), { operator: 'channel' }], 'Invalid narrow[1]: operand is missing'],
      [[{ operand: 'general' }], 'Invalid narrow[0]: operator is missing'],
      [['channel'], 'Invalid narrow[0]: dict or list required'],
      [[term('topic', 5)], 'operand is not a string'],
      [[term('channel', true)], 'operand is not a string or integer'],
      [[term('dm', { a: 1 })], 'operand is not a string or an integer list'],
      [[term('dm', ['a'])], 'operand[0] is not an integer'],
      [[term('search', ' ')], 'operand cannot be blank'],
      [[{ operator: 'is', operand: 'dm', negated: 'yes' }], 'negated is not a boolean'],
    ] as const) {
      const { status, body } = await refusal(narrow);
      expect(status).toBe(400);
      expect(body).toEqual({ result: 'error', msg, code: 'BAD_REQUEST' });
    }
  });
});
