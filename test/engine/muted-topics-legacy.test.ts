import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const NOW = Date.UTC(2026, 0, 1, 12) / 1000;
const MUTED = 1;
const error = (msg: string, extra: Record<string, unknown> = {}) => ({ result: 'error', msg, code: 'BAD_REQUEST', ...extra });
const success = { result: 'success', msg: '' };
const muteTopic = (params: Record<string, unknown>, user: 'mark' | 'mia' = 'mark') => realm.as(user).patch('/users/me/subscriptions/muted_topics', params);
const policiesOf = async (user: 'mark' | 'mia') => (await realm.as(user).post('/register', { fetch_event_types: ['user_topic'] })).body.user_topics;

describe('PATCH /users/me/subscriptions/muted_topics', () => {
  it('mutes a topic of a channel named by id or by name, with the events POST /user_topics sends', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    expect(await muteTopic({ stream_id: IDS.general, topic: 'lunch', op: 'add' })).toEqual({ status: 200, body: success });
    expect(mark.events).toEqual([
      { id: 0, type: 'muted_topics', muted_topics: [['general', 'lunch', NOW]] },
      { id: 1, type: 'user_topic', stream_id: IDS.general, topic_name: 'lunch', last_updated: NOW, visibility_policy: MUTED },
    ]);
    await muteTopic({ stream: 'Design', topic: 'colours', op: 'add' });
    expect(await policiesOf('mark')).toEqual([
      { stream_id: IDS.general, topic_name: 'lunch', last_updated: NOW, visibility_policy: MUTED },
      { stream_id: IDS.design, topic_name: 'colours', last_updated: NOW, visibility_policy: MUTED },
    ]);
  });

  it('unmutes a topic, and accepts muting a muted topic or unmuting one that is not (feature level 170)', async () => {
    await muteTopic({ stream_id: IDS.general, topic: 'lunch', op: 'add' });
    expect((await muteTopic({ stream_id: IDS.general, topic: 'lunch', op: 'add' })).body).toEqual(success);
    expect((await muteTopic({ stream: 'general', topic: 'LUNCH', op: 'remove' })).body).toEqual(success);
    expect(await policiesOf('mark')).toEqual([]);
    expect((await muteTopic({ stream_id: IDS.general, topic: 'lunch', op: 'remove' })).body).toEqual(success);
  });

  it.each([
    ['neither stream nor stream_id', { topic: 'x', op: 'add' }, error('Unsupported parameter combination: stream_id, stream', { parameters: 'stream_id, stream' })],
    ['both stream and stream_id', { stream: 'general', stream_id: IDS.general, topic: 'x', op: 'add' }, error('Unsupported parameter combination: stream_id, stream', { parameters: 'stream_id, stream' })],
    ['an unknown op', { stream_id: IDS.general, topic: 'x', op: 'toggle' }, error('Invalid op')],
    ['a private channel the caller cannot read, by id', { stream_id: IDS.secret, topic: 'x', op: 'add' }, error('Invalid channel ID')],
    ['a private channel the caller cannot read, by name', { stream: 'secret', topic: 'x', op: 'add' }, error("Invalid channel name 'secret'")],
    ['unmuting in an unknown channel', { stream: 'nowhere', topic: 'x', op: 'remove' }, error('Topic is not muted')],
  ])('refuses %s', async (_, params, expected) => {
    await expectRefused(realm, () => muteTopic(params, 'mia'), expected);
  });
});
