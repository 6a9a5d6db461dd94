import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

async function register(user: 'mark' | 'mia' | 'olivia', params: Record<string, unknown> = {}): Promise<string> {
  const { body } = await realm.as(user).post('/register', { fetch_event_types: [], ...params });
  return body.queue_id;
}

/** Resolves once a long-poll is parked on the queue (the request is parsed asynchronously). */
async function parked(engine: Engine, queueId: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ([...engine.queues.all()].find((q) => q.id === queueId)?.waiter) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error('the poll never parked');
}

const messageContents = (events: { type: string; message?: { content: string } }[]) =>
  events.filter((e) => e.type === 'message').map((e) => e.message!.content);

const sendToGeneral = (content = 'hello **all**', extra: Record<string, unknown> = {}) =>
  realm.as('olivia').post('/messages', { type: 'channel', to: 'general', topic: 'news', content, ...extra });

describe('GET /events', () => {
  test('a message sent after register arrives as a message event with Markdown by default', async () => {
    const queueId = await register('mark');
    const sent = await sendToGeneral();
    const { status, body } = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(status).toBe(200);
    expect(body.queue_id).toBe(queueId);
    expect(body.events).toHaveLength(1);
    expect(body.events[0]).toMatchObject({
      id: 0,
      type: 'message',
      flags: [],
      message: {
        id: sent.body.id,
        content: 'hello **all**',
        content_type: 'text/x-markdown',
        sender_id: IDS.olivia,
        display_recipient: 'general',
        subject: 'news',
      },
    });
  });

  test('a message sent while register runs is either in the initial state or delivered, never lost', async () => {
    for (let round = 0; round < 5; round++) {
      const [registered, sent] = await Promise.all([
        realm.as('mark').post('/register', { fetch_event_types: ['message'] }),
        sendToGeneral(`race ${round}`),
      ]);
      const { body } = await realm.as('mark').get('/events', { queue_id: registered.body.queue_id, last_event_id: -1, dont_block: true });
      const delivered = messageContents(body.events).includes(`race ${round}`);
      const inState = registered.body.max_message_id >= sent.body.id;
      expect(delivered !== inState, `round ${round}`).toBe(true);
    }
  });

  test('apply_markdown delivers the rendered HTML', async () => {
    const queueId = await register('mark', { apply_markdown: true });
    await sendToGeneral();
    const { body } = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(body.events[0].message).toMatchObject({ content: '<p>hello <strong>all</strong></p>', content_type: 'text/html' });
  });

  test("the sender's own queue gets its local id back, other queues do not", async () => {
    const senderQueue = await register('olivia');
    const otherQueue = await register('olivia');
    await sendToGeneral('local echo', { queue_id: senderQueue, local_id: 'draft-1', read_by_sender: true });
    const own = await realm.as('olivia').get('/events', { queue_id: senderQueue, last_event_id: -1, dont_block: true });
    expect(own.body.events[0]).toMatchObject({ type: 'message', local_message_id: 'draft-1', flags: ['read'] });
    const other = await realm.as('olivia').get('/events', { queue_id: otherQueue, last_event_id: -1, dont_block: true });
    expect(other.body.events[0]).not.toHaveProperty('local_message_id');
  });

  test('a waiting long-poll returns as soon as an event arrives', async () => {
    const queueId = await register('mark');
    const poll = realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1 });
    await parked(realm.engine, queueId);
    await sendToGeneral('wake up');
    const { status, body } = await poll;
    expect(status).toBe(200);
    expect(body.events.map((e: { type: string }) => e.type)).toEqual(['message']);
    expect(body.events[0].message.content).toBe('wake up');
  });

  test('a client that disconnects releases its parked poll', async () => {
    const queueId = await register('mark');
    const controller = new AbortController();
    const poll = realm
      .as('mark')
      .request('GET', '/events', { queue_id: queueId, last_event_id: -1 }, { signal: controller.signal });
    await parked(realm.engine, queueId);
    controller.abort();
    expect((await poll).body.events).toEqual([]);
    expect([...realm.engine.queues.all()][0].waiter).toBeNull();
  });

  test('dont_block answers at once with an empty list', async () => {
    const queueId = await register('mark');
    const { body } = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(body).toEqual({ result: 'success', msg: '', events: [], queue_id: queueId });
  });

  test('events stay until acknowledged, so a lost reply loses nothing', async () => {
    const queueId = await register('mark');
    await sendToGeneral('first');
    const lost = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(lost.body.events.map((e: { id: number }) => e.id)).toEqual([0]);
    await sendToGeneral('second');
    const retry = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(retry.body.events.map((e: { id: number }) => e.id)).toEqual([0, 1]);
    const acknowledged = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: 1, dont_block: true });
    expect(acknowledged.body.events).toEqual([]);
  });

  test('acknowledging an event the queue never held is refused and drops nothing', async () => {
    const queueId = await register('mark');
    await sendToGeneral('keep me');
    const refused = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: 5, dont_block: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ result: 'error', msg: 'Event 5 was not in this queue', code: 'BAD_REQUEST' });
    const after = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(after.body.events.map((e: { id: number }) => e.id)).toEqual([0]);
  });

  test('a parked poll gets a heartbeat after 45 to 55 seconds', async () => {
    const queueId = await register('mark', { event_types: ['message'] });
    const poll = realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1 });
    await parked(realm.engine, queueId);
    realm.clock.advance(44_000);
    expect([...realm.engine.queues.all()][0].events).toEqual([]);
    realm.clock.advance(11_000);
    const { body } = await poll;
    // Heartbeats reach every queue, whatever its event_types.
    expect(body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
  });

  test('a queue not polled for ten minutes expires', async () => {
    const queueId = await register('mark');
    realm.clock.advance(9 * 60_000);
    const alive = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(alive.status).toBe(200);
    realm.clock.advance(10 * 60_000);
    const { status, body } = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
  });

  test("someone else's queue and an unknown queue are both BAD_EVENT_QUEUE_ID", async () => {
    const queueId = await register('mark');
    const foreign = await realm.as('mia').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
    const unknown = await realm.as('mark').get('/events', { queue_id: 'nope', last_event_id: -1 });
    expect(unknown.body.code).toBe('BAD_EVENT_QUEUE_ID');
  });

  test('queue_id and last_event_id are required', async () => {
    const queueId = await register('mark');
    const noQueue = await realm.as('mark').get('/events', { last_event_id: -1 });
    expect(noQueue.status).toBe(400);
    expect(noQueue.body).toEqual({ result: 'error', msg: "Missing 'queue_id' argument", code: 'BAD_REQUEST' });
    const noLast = await realm.as('mark').get('/events', { queue_id: queueId });
    expect(noLast.body).toEqual({ result: 'error', msg: "Missing 'last_event_id' argument", code: 'BAD_REQUEST' });
  });

  test('event_types limits what the queue receives', async () => {
    const queueId = await register('mark', { event_types: ['stream'] });
    await sendToGeneral();
    const { body } = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(body.events).toEqual([]);
  });

  test('a queue narrowed to one channel does not get other channels\u2019 messages', async () => {
    const queueId = await register('mark', { narrow: [['channel', 'design']] });
    await sendToGeneral('not for the narrow');
    await realm.as('olivia').post('/messages', { type: 'channel', to: 'design', topic: 'mockups', content: 'for the narrow' });
    await realm.as('olivia').post('/messages', { type: 'direct', to: [IDS.mark], content: 'not either' });
    const { body } = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(messageContents(body.events)).toEqual(['for the narrow']);
  });

  test('a narrow on is:dm and a sender keeps only that sender\u2019s direct messages', async () => {
    const queueId = await register('mark', { narrow: [['is', 'dm'], ['sender', 'olivia@zulip.test']] });
    await sendToGeneral('channel message');
    await realm.as('mia').post('/messages', { type: 'direct', to: [IDS.mark], content: 'from mia' });
    await realm.as('olivia').post('/messages', { type: 'direct', to: [IDS.mark], content: 'from olivia' });
    const { body } = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(messageContents(body.events)).toEqual(['from olivia']);
  });

  test('all_public_streams queues see public channel messages they are not subscribed to', async () => {
    const queueId = await register('mia', { all_public_streams: true });
    await realm.as('olivia').post('/messages', { type: 'channel', to: 'design', topic: 'mockups', content: 'public' });
    const { body } = await realm.as('mia').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(messageContents(body.events)).toEqual(['public']);
  });
});

describe('DELETE /events', () => {
  test('deletes the queue; later polls get BAD_EVENT_QUEUE_ID', async () => {
    const queueId = await register('mark');
    const deleted = await realm.as('mark').delete('/events', { queue_id: queueId });
    expect(deleted).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    expect(realm.engine.queues.size).toBe(0);
    const poll = await realm.as('mark').get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(poll.body.code).toBe('BAD_EVENT_QUEUE_ID');
  });

  test("refuses someone else's queue and leaves it alive", async () => {
    const queueId = await register('mark');
    const refused = await realm.as('mia').delete('/events', { queue_id: queueId });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
    expect(realm.engine.queues.size).toBe(1);
  });
});
