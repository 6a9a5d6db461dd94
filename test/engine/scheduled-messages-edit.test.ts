import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
let now: number;
beforeEach(async () => {
  realm = await createTestRealm();
  now = Math.floor(realm.clock.now() / 1000);
  // 1: a channel message in general > plans; 2: a direct message to Mia.
  await realm.as('mark').post('/scheduled_messages', { type: 'channel', to: IDS.general, topic: 'plans', content: 'channel draft', scheduled_delivery_timestamp: now + 3600 });
  await realm.as('mark').post('/scheduled_messages', { type: 'direct', to: [IDS.mia], content: 'direct draft', scheduled_delivery_timestamp: now + 3600 });
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const edit = (id: number, params: Record<string, unknown>) => realm.as('mark').patch(`/scheduled_messages/${id}`, params);
/** Mark's scheduled message as GET /scheduled_messages lists it (no `topic` for a direct message). */
async function row(id: number): Promise<Record<string, any> | undefined> {
  const { body } = await realm.as('mark').get('/scheduled_messages');
  return body.scheduled_messages.find((m: { scheduled_message_id: number }) => m.scheduled_message_id === id);
}

describe('PATCH /scheduled_messages/{id}', () => {
  it('edits the content, re-renders it and sends the whole updated object to the author', async () => {
    const queue = openQueue(realm.engine, IDS.mark);
    const { status, body } = await edit(1, { content: 'new *text*' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(queue.events).toEqual([
      {
        id: 0,
        type: 'scheduled_messages',
        op: 'update',
        scheduled_message: {
          scheduled_message_id: 1,
          to: IDS.general,
          type: 'stream',
          content: 'new *text*',
          rendered_content: '<p>new <em>text</em></p>',
          topic: 'plans',
          scheduled_delivery_timestamp: now + 3600,
          failed: false,
        },
      },
    ]);
  });

  it('moves the delivery time', async () => {
    await edit(1, { scheduled_delivery_timestamp: now + 60 });
    expect((await row(1))?.scheduled_delivery_timestamp).toBe(now + 60);
  });

  it('changes a channel message into a direct one: `to` required, the topic dropped', async () => {
    const { body } = await edit(1, { type: 'direct', to: [IDS.olivia] });
    expect(body.result).toBe('success');
    expect(await row(1)).toMatchObject({ type: 'private', to: [IDS.olivia], content: 'channel draft' });
    expect(await row(1)).not.toHaveProperty('topic');
  });

  it('changes a direct message into a channel one with its topic', async () => {
    await edit(2, { type: 'stream', to: IDS.design, topic: 'moved' });
    expect(await row(2)).toMatchObject({ type: 'stream', to: IDS.design, topic: 'moved' });
  });

  it('reads `to` by the current type when the type does not change', async () => {
    await edit(1, { to: IDS.design });
    await edit(2, { to: [IDS.olivia, IDS.mia] });
    expect(await row(1)).toMatchObject({ type: 'stream', to: IDS.design, topic: 'plans' });
    expect(await row(2)).toMatchObject({ type: 'private', to: [IDS.olivia, IDS.mia] });
  });

  it('ignores a topic for a direct message', async () => {
    await edit(2, { topic: 'ignored', content: 'still direct' });
    expect(await row(2)).toMatchObject({ type: 'private', content: 'still direct' });
    expect(await row(2)).not.toHaveProperty('topic');
  });

  it('reads "(no topic)" and the empty-topic display name as the empty topic', async () => {
    await edit(1, { topic: '(no topic)' });
    expect((await row(1))?.topic).toBe('');
    await edit(1, { topic: 'x' });
    await edit(1, { topic: 'general chat' });
    expect((await row(1))?.topic).toBe('');
  });

  it('refuses the empty topic and its placeholders where topics are required', async () => {
    await edit(1, { to: IDS.strict });
    for (const topic of ['', '(no topic)', 'general chat']) {
      const { status, body } = await edit(1, { topic });
      expect({ topic, status, body }).toEqual({ topic, status: 400, body: error('Sending messages to "general chat" is not allowed in this channel.') });
    }
    expect((await row(1))?.topic).toBe('plans');
  });

  it('refuses a type change without `to`, and a change to a channel without a topic', async () => {
    expect((await edit(2, { type: 'channel' })).body).toEqual(error('Recipient required when updating type of scheduled message.'));
    expect((await edit(2, { type: 'channel', to: IDS.general })).body).toEqual(error('Topic required when updating scheduled message type to channel.'));
    expect(await row(2)).toMatchObject({ type: 'private', to: [IDS.mia] });
  });

  it('refuses the empty topic and its placeholders as the topic a change to a channel requires, even where the channel allows it', async () => {
    for (const topic of ['', '(no topic)', 'general chat', '  ']) {
      await expectRefused(realm, () => edit(2, { type: 'channel', to: IDS.general, topic }), error('Topic required when updating scheduled message type to channel.'));
    }
    expect((await edit(2, { type: 'channel', to: IDS.general, topic: 'plans' })).body).toEqual({ result: 'success', msg: '' });
  });

  it('refuses an edit that changes nothing', async () => {
    const { status, body } = await edit(1, {});
    expect(status).toBe(400);
    expect(body).toEqual(error('Nothing to change'));
  });

  it('refuses an unknown channel with STREAM_DOES_NOT_EXIST and stream_id, changing nothing', async () => {
    await expectRefused(realm, () => edit(1, { to: 77 }), { ...error("Channel with ID '77' does not exist", 'STREAM_DOES_NOT_EXIST'), stream_id: 77 });
  });

  it('refuses an invalid user id with BAD_REQUEST, changing nothing', async () => {
    await expectRefused(realm, () => edit(2, { to: [IDS.mia, 500] }), error('Invalid user ID 500'));
  });

  it("answers 404 for an unknown id and for someone else's message", async () => {
    for (const [user, id] of [['mark', 99], ['mia', 1]] as const) {
      const { status, body } = await realm.as(user).patch(`/scheduled_messages/${id}`, { content: 'x' });
      expect(status).toBe(404);
      expect(body).toEqual(error('Scheduled message does not exist'));
    }
    expect((await row(1))?.content).toBe('channel draft');
  });

  it('refuses a delivery time in the past', async () => {
    const { status, body } = await edit(1, { scheduled_delivery_timestamp: now - 1 });
    expect(status).toBe(400);
    expect(body).toEqual(error('Scheduled delivery time must be in the future.'));
    expect((await row(1))?.scheduled_delivery_timestamp).toBe(now + 3600);
  });

  it('re-checks the posting permission when the content changes', async () => {
    expect((await realm.as('adam').delete(`/streams/${IDS.general}`)).status).toBe(200);
    const { body } = await edit(1, { content: 'changed' });
    expect(body).toEqual({ ...error(`Channel with ID '${IDS.general}' does not exist`, 'STREAM_DOES_NOT_EXIST'), stream_id: IDS.general });
    expect((await row(1))?.content).toBe('channel draft');
  });

  describe('a failed message', () => {
    beforeEach(async () => {
      // A failed delivery, written directly: the API fails a message only when its time comes.
      await realm.engine.db.scheduled_messages.update(1, { failed: true, failure_message: 'boom', pending: undefined });
    });

    it('requires a new delivery time in the edit', async () => {
      const { status, body } = await edit(1, { content: 'fixed' });
      expect(status).toBe(400);
      expect(body).toEqual(error('Scheduled delivery time must be in the future.'));
      expect(await row(1)).toMatchObject({ failed: true, content: 'channel draft' });
    });

    it('waits again for delivery once given one', async () => {
      const queue = openQueue(realm.engine, IDS.mark);
      await edit(1, { content: 'fixed', scheduled_delivery_timestamp: now + 120 });
      expect(await row(1)).toMatchObject({ failed: false, content: 'fixed', scheduled_delivery_timestamp: now + 120 });
      // The scheduler's bookkeeping, which the API does not show: waiting again, the failure forgotten.
      expect(await realm.engine.db.scheduled_messages.get(1)).toMatchObject({ failure_message: null, pending: 1 });
      expect(queue.events[0]).toMatchObject({ op: 'update', scheduled_message: { failed: false, scheduled_delivery_timestamp: now + 120 } });
    });
  });
});
