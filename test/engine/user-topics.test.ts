import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const NOW = Date.UTC(2026, 0, 1, 12) / 1000;
const MUTED = 1;
const FOLLOWED = 3;
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
/** The user's topic policies as their /register shows them, the empty topic under its real name. */
const topicsOf = async (user: TestUser) =>
  (await realm.as(user).post('/register', { fetch_event_types: ['user_topic'], client_capabilities: { empty_topic_name: true } })).body
    .user_topics as Record<string, unknown>[];
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>) => expectRefused(realm, send, expected);
const SUCCESS = { result: 'success', msg: '' };
const setPolicy = (user: TestUser, stream_id: number, topic: string, visibility_policy: unknown) =>
  realm.as(user).post('/user_topics', { stream_id, topic, visibility_policy });
const messageIds = async (narrow: unknown) =>
  (await realm.as('mark').get('/messages', { anchor: 'oldest', num_before: 0, num_after: 100, narrow })).body.messages.map(
    (m: { id: number }) => m.id,
  );

describe('POST /user_topics', () => {
  it('mutes a topic and sends user_topic plus the legacy muted_topics list to the caller only', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    const mia = openQueue(realm.engine, IDS.mia);
    const { status, body } = await setPolicy('mark', IDS.general, 'Welcome', MUTED);
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await topicsOf('mark')).toEqual([{ stream_id: IDS.general, topic_name: 'Welcome', last_updated: NOW, visibility_policy: MUTED }]);
    expect(mark.events).toEqual([
      { id: 0, type: 'muted_topics', muted_topics: [['general', 'Welcome', NOW]] },
      { id: 1, type: 'user_topic', stream_id: IDS.general, topic_name: 'Welcome', last_updated: NOW, visibility_policy: MUTED },
    ]);
    expect(mia.events).toEqual([]);
  });

  it('withholds muted_topics from queues that asked for user_topic', async () => {
    const modern = openQueue(realm.engine, IDS.mark, { eventTypes: new Set(['user_topic', 'muted_topics']) });
    const legacy = openQueue(realm.engine, IDS.mark, { eventTypes: new Set(['muted_topics']) });
    await setPolicy('mark', IDS.general, 'welcome', MUTED);
    expect(modern.events.map((e) => e.type)).toEqual(['user_topic']);
    expect(legacy.events.map((e) => e.type)).toEqual(['muted_topics']);
  });

  it('a muted topic leaves in:home, a followed one joins is:followed', async () => {
    await setPolicy('mark', IDS.general, 'welcome', MUTED);
    expect(await messageIds([{ operator: 'in', operand: 'home' }])).toEqual([3, 4]);
    await setPolicy('mark', IDS.general, 'WELCOME', FOLLOWED);
    // One policy per topic whatever its case: following replaced the mute.
    expect(await topicsOf('mark')).toEqual([expect.objectContaining({ stream_id: IDS.general, last_updated: NOW, visibility_policy: FOLLOWED })]);
    expect(await messageIds([{ operator: 'is', operand: 'followed' }])).toEqual([1, 2]);
  });

  it('clears a policy with 0, sending the cleared state', async () => {
    realm.clock.advance(5000);
    await setPolicy('mark', IDS.general, 'welcome', MUTED);
    const mark = openQueue(realm.engine, IDS.mark);
    await setPolicy('mark', IDS.general, 'welcome', 0);
    expect(await topicsOf('mark')).toEqual([]);
    expect(mark.events).toEqual([
      { id: 0, type: 'muted_topics', muted_topics: [] },
      { id: 1, type: 'user_topic', stream_id: IDS.general, topic_name: 'welcome', last_updated: NOW + 5, visibility_policy: 0 },
    ]);
  });

  it('answers success without an event when nothing changes', async () => {
    await setPolicy('mark', IDS.general, 'welcome', FOLLOWED);
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await setPolicy('mark', IDS.general, 'welcome', FOLLOWED)).body).toEqual(SUCCESS);
    expect((await setPolicy('mark', IDS.general, 'other', 0)).body).toEqual(SUCCESS);
    expect(mark.events).toEqual([]);
    expect(await topicsOf('mark')).toEqual([{ stream_id: IDS.general, topic_name: 'welcome', last_updated: NOW, visibility_policy: FOLLOWED }]);
  });

  it('reads the empty topic under its display name and shows it per client', async () => {
    const legacy = openQueue(realm.engine, IDS.mark);
    const modern = openQueue(realm.engine, IDS.mark, { capabilities: { ...NO_CAPABILITIES, empty_topic_name: true } });
    await setPolicy('mark', IDS.general, 'general chat', MUTED);
    expect(await topicsOf('mark')).toEqual([{ stream_id: IDS.general, topic_name: '', last_updated: NOW, visibility_policy: MUTED }]);
    expect(legacy.events.map((e) => (e.type === 'user_topic' ? e.topic_name : e.muted_topics))).toEqual([
      [['general', 'general chat', NOW]],
      'general chat',
    ]);
    expect(modern.events.map((e) => (e.type === 'user_topic' ? e.topic_name : e.muted_topics))).toEqual([[['general', '', NOW]], '']);
  });

  it('lets a member set a policy in a public channel they are not subscribed to', async () => {
    expect((await setPolicy('mia', IDS.design, 'ideas', FOLLOWED)).body).toEqual(SUCCESS);
    expect(await topicsOf('mia')).toEqual([{ stream_id: IDS.design, topic_name: 'ideas', last_updated: NOW, visibility_policy: FOLLOWED }]);
  });

  it.each([
    ['an unknown channel', 'mark', 99],
    ['a private channel the caller is not in', 'mia', IDS.secret],
    ['a public channel a guest is not in', 'gail', IDS.design],
  ] as const)('refuses %s with "Invalid channel ID", changing nothing', async (_case, user, channelId) => {
    await refused(() => setPolicy(user, channelId, 'plans', MUTED), error('Invalid channel ID'));
  });

  it('lets a user who lost access to a channel still clear a policy there', async () => {
    await realm.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], principals: [IDS.mia] });
    expect((await setPolicy('mia', IDS.secret, 'plans', MUTED)).body).toEqual(SUCCESS);
    await realm.as('olivia').delete('/users/me/subscriptions', { subscriptions: ['secret'], principals: [IDS.mia] });
    await refused(() => setPolicy('mia', IDS.secret, 'plans', FOLLOWED), error('Invalid channel ID'));
    expect((await setPolicy('mia', IDS.secret, 'plans', 0)).body).toEqual(SUCCESS);
    expect(await topicsOf('mia')).toEqual([]);
  });

  it('validates the visibility policy and the topic length', async () => {
    await refused(() => setPolicy('mark', IDS.general, 'welcome', 4), error('Invalid visibility_policy'));
    await refused(() => setPolicy('mark', IDS.general, 'welcome', 1.5), error('visibility_policy is not an integer'));
    await refused(() => setPolicy('mark', IDS.general, 't'.repeat(61), MUTED), error('topic is too long (limit: 60 characters)'));
    // Characters, as a message's topic is counted: 60 emoji (120 UTF-16 units) are a topic a message may have.
    expect((await setPolicy('mark', IDS.general, '😀'.repeat(60), MUTED)).body).toEqual(SUCCESS);
    await refused(() => setPolicy('mark', IDS.general, '😀'.repeat(61), MUTED), error('topic is too long (limit: 60 characters)'));
    await refused(() => realm.as('mark').post('/user_topics', { stream_id: IDS.general, topic: 'welcome' }), {
      ...error("Missing 'visibility_policy' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'visibility_policy',
    });
  });
});

describe('the user_topic register section', () => {
  it("lists the caller's policies and, for old clients, the muted topics", async () => {
    await setPolicy('mark', IDS.general, 'welcome', MUTED);
    await setPolicy('mark', IDS.design, 'ideas', FOLLOWED);
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['user_topic', 'muted_topics'] });
    expect(body.user_topics).toEqual([
      { stream_id: IDS.general, topic_name: 'welcome', last_updated: NOW, visibility_policy: MUTED },
      { stream_id: IDS.design, topic_name: 'ideas', last_updated: NOW, visibility_policy: FOLLOWED },
    ]);
    expect(body).not.toHaveProperty('muted_topics');
    const legacy = await realm.as('mark').post('/register', { fetch_event_types: ['muted_topics'] });
    expect(legacy.body.muted_topics).toEqual([['general', 'welcome', NOW]]);
  });
});
