import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
let now: number;
beforeEach(async () => {
  realm = await createTestRealm();
  now = Math.floor(realm.clock.now() / 1000);
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const scheduledOf = async (user: 'mark' | 'olivia' | 'mia' | 'adam') => (await realm.as(user).get('/scheduled_messages')).body.scheduled_messages;
const schedule = (params: Record<string, unknown>) =>
  realm.as('mark').post('/scheduled_messages', { scheduled_delivery_timestamp: now + 3600, ...params });

describe('POST /scheduled_messages', () => {
  it('schedules a channel message, answers its id and tells only the author', async () => {
    const markQueue = openQueue(realm.engine, IDS.mark);
    const oliviaQueue = openQueue(realm.engine, IDS.olivia);
    const { status, body } = await schedule({ type: 'channel', to: IDS.general, topic: 'plans', content: 'Hello **all**' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', scheduled_message_id: 1 });
    expect(markQueue.events).toEqual([
      {
        id: 0,
        type: 'scheduled_messages',
        op: 'add',
        scheduled_messages: [
          {
            scheduled_message_id: 1,
            to: IDS.general,
            type: 'stream',
            content: 'Hello **all**',
            rendered_content: '<p>Hello <strong>all</strong></p>',
            topic: 'plans',
            scheduled_delivery_timestamp: now + 3600,
            failed: false,
          },
        ],
      },
    ]);
    expect(oliviaQueue.events).toEqual([]);
    expect(await scheduledOf('mark')).toEqual(markQueue.events[0].scheduled_messages);
    expect(await scheduledOf('olivia')).toEqual([]);
    // The scheduler's bookkeeping, which the API does not show: waiting for delivery, no failure.
    expect(await realm.engine.db.scheduled_messages.get(1)).toMatchObject({ pending: 1, failure_message: null });
  });

  it('schedules a direct message, listing the other participants in `to`', async () => {
    const { body } = await schedule({ type: 'direct', to: [IDS.mia, IDS.mark, IDS.olivia], content: 'hi' });
    const { body: list } = await realm.as('mark').get('/scheduled_messages');
    expect(list.scheduled_messages).toEqual([
      {
        scheduled_message_id: body.scheduled_message_id,
        to: [IDS.olivia, IDS.mia],
        type: 'private',
        content: 'hi',
        rendered_content: '<p>hi</p>',
        scheduled_delivery_timestamp: now + 3600,
        failed: false,
      },
    ]);
  });

  it('reads a single user id and the legacy type names, and keeps `to` as [self] for a note to self', async () => {
    await schedule({ type: 'private', to: IDS.mark, content: 'note to self' });
    await schedule({ type: 'stream', to: [IDS.design], subject: 'legacy', content: 'legacy names' });
    const { body } = await realm.as('mark').get('/scheduled_messages');
    expect(body.scheduled_messages.map((m: Record<string, unknown>) => [m.type, m.to, m.topic])).toEqual([
      ['private', [IDS.mark], undefined],
      ['stream', IDS.design, 'legacy'],
    ]);
  });

  it('refuses a delivery time that is not in the future, and writes nothing', async () => {
    for (const timestamp of [now, now - 60]) {
      await expectRefused(
        realm,
        () => schedule({ type: 'channel', to: IDS.general, topic: 't', content: 'x', scheduled_delivery_timestamp: timestamp }),
        error('Scheduled delivery time must be in the future.'),
      );
    }
  });

  it('refuses an unknown channel with STREAM_DOES_NOT_EXIST and its stream_id', async () => {
    await expectRefused(realm, () => schedule({ type: 'channel', to: 99, topic: 't', content: 'x' }), {
      ...error("Channel with ID '99' does not exist", 'STREAM_DOES_NOT_EXIST'),
      stream_id: 99,
    });
  });

  it('refuses an unknown user id with BAD_REQUEST', async () => {
    await expectRefused(realm, () => schedule({ type: 'direct', to: [IDS.mia, 999], content: 'x' }), error('Invalid user ID 999'));
  });

  it('runs the send checks: recipients, topic, content, channel access and posting permission', async () => {
    expect((await realm.as('adam').delete(`/users/${IDS.mia}`)).status).toBe(200);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'direct', to: [], content: 'x' }, 'Message must have recipients'],
      [{ type: 'direct', to: [IDS.mia], content: 'x' }, "'mia@zulip.test' is no longer using Zulip."],
      [{ type: 'channel', to: [IDS.general, IDS.design], topic: 't', content: 'x' }, 'Invalid data type for channel ID'],
      [{ type: 'channel', to: IDS.general, content: 'x' }, 'Missing topic'],
      [{ type: 'channel', to: IDS.strict, topic: '(no topic)', content: 'x' }, 'Sending messages to "general chat" is not allowed in this channel.'],
      [{ type: 'channel', to: IDS.general, topic: 't', content: '  \n ' }, 'Message must not be empty'],
      [{ type: 'channel', to: IDS.announce, topic: 't', content: 'x' }, 'You do not have permission to post in this channel.'],
    ];
    for (const [params, msg] of cases) {
      await expectRefused(realm, () => schedule(params), error(msg));
    }
    await expectRefused(
      realm,
      () => realm.as('gail').post('/scheduled_messages', { type: 'channel', to: IDS.secret, topic: 't', content: 'x', scheduled_delivery_timestamp: now + 60 }),
      error("Not authorized to send to channel 'secret'"),
    );
  });

  it('lets an administrator schedule to an announcement channel', async () => {
    const { body } = await realm.as('adam').post('/scheduled_messages', {
      type: 'channel', to: IDS.announce, topic: 'news', content: 'x', scheduled_delivery_timestamp: now + 60,
    });
    expect(body).toEqual({ result: 'success', msg: '', scheduled_message_id: 1 });
    expect(await scheduledOf('adam')).toEqual([
      {
        scheduled_message_id: 1,
        to: IDS.announce,
        type: 'stream',
        content: 'x',
        rendered_content: '<p>x</p>',
        topic: 'news',
        scheduled_delivery_timestamp: now + 60,
        failed: false,
      },
    ]);
  });

  it('reports missing and malformed parameters as upstream does', async () => {
    const missing = await realm.as('mark').post('/scheduled_messages', { type: 'direct', to: [IDS.mia], content: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ ...error("Missing 'scheduled_delivery_timestamp' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'scheduled_delivery_timestamp' });
    expect((await schedule({ type: 'email', to: [IDS.mia], content: 'x' })).body).toEqual(error('Invalid type'));
    expect((await schedule({ type: 'direct', to: 'mia', content: 'x' })).body).toEqual(error('to is not valid JSON'));
    expect((await schedule({ type: 'direct', to: [IDS.mia], content: 'x', scheduled_delivery_timestamp: 'soon' })).body).toEqual(
      error('scheduled_delivery_timestamp is not valid JSON'),
    );
    expect(await scheduledOf('mark')).toEqual([]);
  });
});

describe('GET /scheduled_messages', () => {
  it("lists only the caller's messages, earliest delivery first, failed ones included", async () => {
    await schedule({ type: 'channel', to: IDS.general, topic: 'later', content: 'later', scheduled_delivery_timestamp: now + 7200 });
    await schedule({ type: 'channel', to: IDS.general, topic: 'sooner', content: 'sooner', scheduled_delivery_timestamp: now + 600 });
    await realm.as('olivia').post('/scheduled_messages', { type: 'direct', to: [IDS.mark], content: 'hers', scheduled_delivery_timestamp: now + 60 });
    // A failed delivery, written directly: the API fails a message only when its time comes.
    await realm.engine.db.scheduled_messages.update(1, { failed: true, failure_message: 'boom', pending: undefined });
    const { status, body } = await realm.as('mark').get('/scheduled_messages');
    expect(status).toBe(200);
    expect(body.scheduled_messages.map((m: Record<string, unknown>) => [m.scheduled_message_id, m.topic, m.failed])).toEqual([
      [2, 'sooner', false],
      [1, 'later', true],
    ]);
    expect((await realm.as('mia').get('/scheduled_messages')).body).toEqual({ result: 'success', msg: '', scheduled_messages: [] });
  });
});

describe('DELETE /scheduled_messages/{id}', () => {
  it('cancels the message and sends a remove event to the author', async () => {
    await schedule({ type: 'direct', to: [IDS.mia], content: 'x' });
    const queue = openQueue(realm.engine, IDS.mark);
    const { status, body } = await realm.as('mark').delete('/scheduled_messages/1');
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await scheduledOf('mark')).toEqual([]);
    expect(queue.events).toEqual([{ id: 0, type: 'scheduled_messages', op: 'remove', scheduled_message_id: 1 }]);
  });

  it("answers 404 for an unknown id and for someone else's message, changing nothing", async () => {
    await schedule({ type: 'direct', to: [IDS.mia], content: 'x' });
    for (const [user, id] of [['mark', 42], ['olivia', 1]] as const) {
      await expectRefused(realm, () => realm.as(user).delete(`/scheduled_messages/${id}`), error('Scheduled message does not exist'), 404);
    }
    expect((await scheduledOf('mark')).map((m: { scheduled_message_id: number }) => m.scheduled_message_id)).toEqual([1]);
  });
});

describe('scheduled messages in /register and in events', () => {
  it('returns the scheduled_messages section, with the empty topic named for clients without empty_topic_name', async () => {
    await schedule({ type: 'channel', to: IDS.general, topic: '', content: 'x' });
    const legacy = await realm.as('mark').post('/register', { fetch_event_types: ['scheduled_messages'] });
    expect(legacy.body.scheduled_messages).toEqual([
      expect.objectContaining({ scheduled_message_id: 1, topic: 'general chat' }),
    ]);
    const modern = await realm.as('mark').post('/register', {
      fetch_event_types: ['scheduled_messages'],
      client_capabilities: { empty_topic_name: true },
    });
    expect(modern.body.scheduled_messages).toEqual([expect.objectContaining({ scheduled_message_id: 1, topic: '' })]);
    expect((await realm.as('mia').post('/register', { fetch_event_types: ['scheduled_messages'] })).body.scheduled_messages).toEqual([]);
  });

  it('names the empty topic in add events for queues without empty_topic_name', async () => {
    const legacy = openQueue(realm.engine, IDS.mark);
    const modern = openQueue(realm.engine, IDS.mark, { capabilities: { ...legacy.capabilities, empty_topic_name: true } });
    await schedule({ type: 'channel', to: IDS.general, topic: '', content: 'x' });
    expect((legacy.events[0].scheduled_messages as Array<{ topic: string }>)[0].topic).toBe('general chat');
    expect((modern.events[0].scheduled_messages as Array<{ topic: string }>)[0].topic).toBe('');
  });
});
