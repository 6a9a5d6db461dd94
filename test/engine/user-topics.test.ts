import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const NOW = Date.UTC(2026, 0, 1, 12) / 1000;
const MUTED = 1;
const FOLLOWED = 3;
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const topicsOf = (userId: number) => realm.engine.db.user_topics.where('user_id').equals(userId).toArray();
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
    expect(await topicsOf(IDS.mark)).toEqual([
      { user_id: IDS.mark, stream_id: IDS.general, topic_key: 'welcome', topic_name: 'Welcome', visibility_policy: MUTED, last_updated: NOW },
    ]);
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
    expect(await topicsOf(IDS.mark)).toHaveLength(1);
    expect(await messageIds([{ operator: 'is', operand: 'followed' }])).toEqual([1, 2]);
  });

  it('clears a policy with 0, sending the cleared state', async () => {
    realm.clock.advance(5000);
    await setPolicy('mark', IDS.general, 'welcome', MUTED);
    const mark = openQueue(realm.engine, IDS.mark);
    await setPolicy('mark', IDS.general, 'welcome', 0);
    expect(await topicsOf(IDS.mark)).toEqual([]);
    expect(mark.events).toEqual([
      { id: 0, type: 'muted_topics', muted_topics: [] },
      { id: 1, type: 'user_topic', stream_id: IDS.general, topic_name: 'welcome', last_updated: NOW + 5, visibility_policy: 0 },
    ]);
  });

  it('answers success without an event when nothing changes', async () => {
    await setPolicy('mark', IDS.general, 'welcome', FOLLOWED);
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await setPolicy('mark', IDS.general, 'welcome', FOLLOWED)).body.result).toBe('success');
    expect((await setPolicy('mark', IDS.general, 'other', 0)).body.result).toBe('success');
    expect(mark.events).toEqual([]);
  });

  it('reads the empty topic under its display name and shows it per client', async () => {
    const legacy = openQueue(realm.engine, IDS.mark);
    const modern = openQueue(realm.engine, IDS.mark, { capabilities: { ...NO_CAPABILITIES, empty_topic_name: true } });
    await setPolicy('mark', IDS.general, 'general chat', MUTED);
    expect((await topicsOf(IDS.mark))[0]).toMatchObject({ topic_key: '', topic_name: '' });
    expect(legacy.events.map((e) => (e.type === 'user_topic' ? e.topic_name : e.muted_topics))).toEqual([
      [['general', 'general chat', NOW]],
      'general chat',
    ]);
    expect(modern.events.map((e) => (e.type === 'user_topic' ? e.topic_name : e.muted_topics))).toEqual([[['general', '', NOW]], '']);
  });

  it('lets a member set a policy in a public channel they are not subscribed to', async () => {
    expect((await setPolicy('mia', IDS.design, 'ideas', FOLLOWED)).body.result).toBe('success');
  });

  it.each([
    ['an unknown channel', 'mark', 99],
    ['a private channel the caller is not in', 'mia', IDS.secret],
    ['a public channel a guest is not in', 'gail', IDS.design],
  ] as const)('refuses %s with "Invalid channel ID", changing nothing', async (_case, user, channelId) => {
    const queue = openQueue(realm.engine, IDS[user]);
    const { status, body } = await setPolicy(user, channelId, 'plans', MUTED);
    expect(status).toBe(400);
    expect(body).toEqual(error('Invalid channel ID'));
    expect(await topicsOf(IDS[user])).toEqual([]);
    expect(queue.events).toEqual([]);
  });

  it('lets a user who lost access to a channel still clear a policy there', async () => {
    await realm.engine.db.user_topics.put({
      user_id: IDS.mia,
      stream_id: IDS.secret,
      topic_key: 'plans',
      topic_name: 'plans',
      visibility_policy: MUTED,
      last_updated: 0,
    });
    expect((await setPolicy('mia', IDS.secret, 'plans', 0)).body.result).toBe('success');
    expect(await topicsOf(IDS.mia)).toEqual([]);
  });

  it('validates the visibility policy and the topic length', async () => {
    expect((await setPolicy('mark', IDS.general, 'welcome', 4)).body).toEqual(error('Invalid visibility_policy'));
    expect((await setPolicy('mark', IDS.general, 'welcome', 1.5)).body).toEqual(error('visibility_policy is not an integer'));
    expect((await setPolicy('mark', IDS.general, 't'.repeat(61), MUTED)).body).toEqual(error('topic is too long (limit: 60 characters)'));
    const missing = await realm.as('mark').post('/user_topics', { stream_id: IDS.general, topic: 'welcome' });
    expect(missing.body).toEqual({ ...error("Missing 'visibility_policy' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'visibility_policy' });
    expect(await topicsOf(IDS.mark)).toEqual([]);
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
