import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const register = async (user: 'mark' | 'mia', params: Record<string, unknown> = {}): Promise<string> => {
  const { body } = await realm.as(user).post('/register', { fetch_event_types: ['realm'], ...params });
  expect(body).toMatchObject({ result: 'success' });
  return body.queue_id as string;
};
const poll = (user: 'mark' | 'mia', queueId: string) => realm.as(user).get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
const gone = (queueId: string) => ({ result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
const queueCount = (userId: number) => [...realm.engine.queues.queuesOf(userId)].length;

describe('event queues per user', () => {
  it('keeps at most 100: a new one replaces the one polled longest ago', async () => {
    const queues: string[] = [];
    for (let i = 0; i < 100; i++) {
      queues.push(await register('mark'));
      realm.clock.advance(1000);
    }
    const miasQueue = await register('mia');
    // The first queue was polled just now: the second is the one unused longest.
    expect((await poll('mark', queues[0])).body).toMatchObject({ result: 'success' });
    const newest = await register('mark');

    expect(queueCount(IDS.mark)).toBe(100);
    expect((await poll('mark', queues[1])).body).toEqual(gone(queues[1]));
    for (const queueId of [queues[0], queues[2], queues[99], newest]) expect((await poll('mark', queueId)).body).toMatchObject({ result: 'success' });
    expect((await poll('mia', miasQueue)).body).toMatchObject({ result: 'success' });
  });

  it('lives at most 7 days without a poll, whatever lifespan the client asks for', async () => {
    const queueId = await register('mark', { queue_lifespan_secs: 30 * 24 * 3600 });
    realm.clock.advance(7 * 24 * 3600 * 1000);
    expect((await poll('mark', queueId)).body).toEqual(gone(queueId));
  });
});
