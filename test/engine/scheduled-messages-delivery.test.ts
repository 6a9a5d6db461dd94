import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/engine/clock/clock.ts';
import { Engine } from '../../src/engine/engine.ts';
import { createTestRealm, IDS, openQueue, TEST_SCENARIO, TestClient, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
let now: number;
beforeEach(async () => {
  realm = await createTestRealm();
  now = Math.floor(realm.clock.now() / 1000);
});
afterEach(() => realm.engine.close());

const FIRST_NEW_MESSAGE_ID = TEST_SCENARIO.messages.length + 1;
const NOTIFICATION_BOT_ID = 1;

/** Moves the clock and waits for the deliveries that fall due on the way. */
async function advanceSeconds(seconds: number): Promise<void> {
  realm.clock.advance(seconds * 1000);
  await realm.engine.scheduler.settled();
}

const schedule = (user: 'mark' | 'adam', params: Record<string, unknown>) =>
  realm.as(user).post('/scheduled_messages', { scheduled_delivery_timestamp: now + 300, ...params });
type User = Parameters<TestRealm['as']>[0];

/** The messages sent since the scenario as `user` reads them (raw Markdown), oldest first. */
async function newMessages(user: User = 'mark'): Promise<Record<string, any>[]> {
  const { status, body } = await realm.as(user).get('/messages', {
    anchor: FIRST_NEW_MESSAGE_ID,
    num_before: 0,
    num_after: 100,
    apply_markdown: false,
  });
  expect(status).toBe(200);
  return body.messages;
}

const participants = (message: Record<string, any>) => message.display_recipient.map((u: { id: number }) => u.id);

/** The author's scheduled messages as GET /scheduled_messages lists them. */
async function scheduledOf(user: User): Promise<Record<string, unknown>[]> {
  const { body } = await realm.as(user).get('/scheduled_messages');
  return body.scheduled_messages;
}

describe('delivery of scheduled messages', () => {
  it('sends the message as its author when its time comes, then removes it and tells the author', async () => {
    await schedule('mark', { type: 'channel', to: IDS.general, topic: 'plans', content: 'On **time**' });
    const mark = openQueue(realm.engine, IDS.mark);
    const mia = openQueue(realm.engine, IDS.mia);

    await advanceSeconds(299);
    expect(await newMessages()).toEqual([]);

    await advanceSeconds(1);
    expect(await newMessages()).toEqual([
      expect.objectContaining({
        id: FIRST_NEW_MESSAGE_ID,
        sender_id: IDS.mark,
        stream_id: IDS.general,
        subject: 'plans',
        content: 'On **time**',
        timestamp: now + 300,
        client: 'API',
      }),
    ]);
    const { body } = await realm.as('mia').get(`/messages/${FIRST_NEW_MESSAGE_ID}`);
    expect(body.message.content).toBe('<p>On <strong>time</strong></p>');
    expect(await scheduledOf('mark')).toEqual([]);
    expect(mark.events.map((e) => [e.type, e.op])).toEqual([
      ['message', undefined],
      ['scheduled_messages', 'remove'],
    ]);
    expect(mark.events[1]).toEqual({ id: 1, type: 'scheduled_messages', op: 'remove', scheduled_message_id: 1 });
    expect(mia.events).toEqual([
      expect.objectContaining({ type: 'message', flags: [], message: expect.objectContaining({ id: FIRST_NEW_MESSAGE_ID, sender_id: IDS.mark, subject: 'plans' }) }),
    ]);
  });

  it('delivers a note to self unread, and direct messages to every participant', async () => {
    await schedule('mark', { type: 'direct', to: [IDS.mark], content: 'remember' });
    await schedule('mark', { type: 'direct', to: [IDS.mia, IDS.olivia], content: 'group hello' });
    await advanceSeconds(300);
    const [toSelf, group] = await newMessages();
    expect(toSelf).toMatchObject({ type: 'private', content: 'remember', flags: [] });
    expect(participants(toSelf)).toEqual([IDS.mark]);
    expect(group).toMatchObject({ type: 'private', content: 'group hello' });
    expect(participants(group)).toEqual([IDS.olivia, IDS.mark, IDS.mia]);
    for (const user of ['olivia', 'mia'] as const) {
      expect((await newMessages(user)).map((m) => m.id)).toEqual([group.id]);
    }
  });

  it('delivers messages that fell due together in delivery-time order, stamped with the time they are sent', async () => {
    await schedule('mark', { type: 'direct', to: [IDS.mia], content: 'second', scheduled_delivery_timestamp: now + 200 });
    await schedule('mark', { type: 'direct', to: [IDS.mia], content: 'first', scheduled_delivery_timestamp: now + 100 });
    await advanceSeconds(600);
    expect((await newMessages()).map((m) => [m.content, m.timestamp])).toEqual([
      ['first', now + 600],
      ['second', now + 600],
    ]);
  });

  it('follows an edited delivery time and never sends a deleted message', async () => {
    await schedule('mark', { type: 'direct', to: [IDS.mia], content: 'moved' });
    await schedule('mark', { type: 'direct', to: [IDS.mia], content: 'cancelled' });
    await realm.as('mark').patch('/scheduled_messages/1', { scheduled_delivery_timestamp: now + 600 });
    await realm.as('mark').delete('/scheduled_messages/2');
    await advanceSeconds(300);
    expect(await newMessages()).toEqual([]);
    await advanceSeconds(300);
    expect((await newMessages()).map((m) => m.content)).toEqual(['moved']);
  });

  describe('when delivery is impossible', () => {
    const failureNotice = (reason: string) =>
      `The message you scheduled for <time:2026-01-01T12:05:00+00:00> was not sent because of the following error:\n\n> ${reason}\n\n[View scheduled messages](#scheduled)`;

    it('marks the message failed with the reason, sends an update event and a notice from Notification Bot', async () => {
      await schedule('mark', { type: 'channel', to: IDS.general, topic: 'plans', content: 'too late' });
      expect((await realm.as('adam').delete(`/streams/${IDS.general}`)).status).toBe(200);
      const mark = openQueue(realm.engine, IDS.mark);
      await advanceSeconds(300);

      const reason = `Channel with ID '${IDS.general}' does not exist`;
      // The scheduler's bookkeeping: a failed message is no longer waiting for delivery.
      expect(await realm.engine.db.scheduled_messages.get(1)).not.toHaveProperty('pending');
      expect(mark.events[0]).toEqual({
        id: 0,
        type: 'scheduled_messages',
        op: 'update',
        scheduled_message: {
          scheduled_message_id: 1,
          to: IDS.general,
          type: 'stream',
          content: 'too late',
          rendered_content: '<p>too late</p>',
          topic: 'plans',
          scheduled_delivery_timestamp: now + 300,
          failed: true,
        },
      });
      expect(mark.events[1]).toMatchObject({ type: 'message', message: { sender_id: NOTIFICATION_BOT_ID, type: 'private' } });
      // The first is the notice of the archiving, in the archived channel.
      const notices = await newMessages();
      expect(notices.map((m) => [m.sender_id, m.type, m.content, m.client])).toEqual([
        [NOTIFICATION_BOT_ID, 'stream', 'Channel #**general** has been archived.', 'Internal'],
        [NOTIFICATION_BOT_ID, 'private', failureNotice(reason), 'Internal'],
      ]);
      expect(participants(notices[1])).toEqual([NOTIFICATION_BOT_ID, IDS.mark]);
      expect(await scheduledOf('mark')).toEqual([mark.events[0].scheduled_message]);
    });

    it('fails when the author may no longer post in the channel', async () => {
      await schedule('adam', { type: 'channel', to: IDS.announce, topic: 'news', content: 'x' });
      expect((await realm.as('olivia').patch(`/users/${IDS.adam}`, { role: 400 })).status).toBe(200);
      await advanceSeconds(300);
      expect(await scheduledOf('adam')).toEqual([expect.objectContaining({ scheduled_message_id: 1, failed: true })]);
      expect((await newMessages('adam')).map((m) => [m.sender_id, m.content])).toEqual([
        [NOTIFICATION_BOT_ID, failureNotice('You do not have permission to post in this channel.')],
      ]);
    });

    it('fails when the author lost access to a private channel', async () => {
      await schedule('mark', { type: 'channel', to: IDS.secret, topic: 'plans', content: 'x' });
      expect((await realm.as('mark').delete('/users/me/subscriptions', { subscriptions: ['secret'] })).status).toBe(200);
      await advanceSeconds(300);
      expect(await scheduledOf('mark')).toEqual([expect.objectContaining({ scheduled_message_id: 1, failed: true })]);
      expect((await newMessages()).map((m) => [m.sender_id, m.content])).toEqual([
        [NOTIFICATION_BOT_ID, failureNotice("Not authorized to send to channel 'secret'")],
      ]);
    });

    it('fails when a recipient was deactivated', async () => {
      await schedule('mark', { type: 'direct', to: [IDS.mia], content: 'x' });
      expect((await realm.as('adam').delete(`/users/${IDS.mia}`)).status).toBe(200);
      await advanceSeconds(300);
      expect(await scheduledOf('mark')).toEqual([expect.objectContaining({ scheduled_message_id: 1, failed: true })]);
      expect((await newMessages()).map((m) => [m.sender_id, m.content])).toEqual([
        [NOTIFICATION_BOT_ID, failureNotice("'mia@zulip.test' is no longer using Zulip.")],
      ]);
    });

    it('fails silently when the author was deactivated', async () => {
      await schedule('mark', { type: 'direct', to: [IDS.mia], content: 'x' });
      expect((await realm.as('adam').delete(`/users/${IDS.mark}`)).status).toBe(200);
      const mark = openQueue(realm.engine, IDS.mark);
      await advanceSeconds(300);
      // A deactivated author can call no endpoint, and no notice carries the reason: only storage shows it.
      expect(await realm.engine.db.scheduled_messages.get(1)).toMatchObject({ failed: true, failure_message: 'Account is deactivated' });
      expect(mark.events).toEqual([]);
      // Nothing was sent to anyone: no message row at all.
      expect(await realm.engine.db.messages.where('id').aboveOrEqual(FIRST_NEW_MESSAGE_ID).count()).toBe(0);
    });

    it('never retries a failed message until it is edited with a new time', async () => {
      await schedule('mark', { type: 'direct', to: [IDS.mia], content: 'x' });
      expect((await realm.as('adam').delete(`/users/${IDS.mia}`)).status).toBe(200);
      await advanceSeconds(300);
      expect((await realm.as('adam').post(`/users/${IDS.mia}/reactivate`)).status).toBe(200);
      await advanceSeconds(3600);
      expect((await newMessages()).map((m) => m.sender_id)).toEqual([NOTIFICATION_BOT_ID]);

      await realm.as('mark').patch('/scheduled_messages/1', { scheduled_delivery_timestamp: now + 3900 + 60 });
      await advanceSeconds(60);
      expect((await newMessages()).map((m) => m.sender_id)).toEqual([NOTIFICATION_BOT_ID, IDS.mark]);
    });
  });
});

describe('messages that fell due while no engine was running', () => {
  it('are delivered as soon as the engine starts again', async () => {
    const indexedDB = new IDBFactory();
    const name = `restart-${crypto.randomUUID()}`;
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
    const open = () => Engine.create({ name, indexedDB, IDBKeyRange, clock, passwordIterations: 1000 });
    const start = Math.floor(clock.now() / 1000);

    const first = await open();
    await first.loadScenario(TEST_SCENARIO);
    const mark = TEST_SCENARIO.users.find((u) => u.email === 'mark@zulip.test')!;
    await new TestClient(first, mark.email, mark.api_key).post('/scheduled_messages', {
      type: 'direct', to: [IDS.mia], content: 'while you were away', scheduled_delivery_timestamp: start + 300,
    });
    first.close();
    clock.advance(3600_000);

    const second = await open();
    await second.scheduler.settled();
    const client = new TestClient(second, mark.email, mark.api_key);
    const delivered = await client.get('/messages', { anchor: FIRST_NEW_MESSAGE_ID, num_before: 0, num_after: 100, apply_markdown: false });
    expect(delivered.body.messages).toEqual([expect.objectContaining({ sender_id: IDS.mark, content: 'while you were away', timestamp: start + 3600 })]);
    expect((await client.get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
    second.close();
  });
});
