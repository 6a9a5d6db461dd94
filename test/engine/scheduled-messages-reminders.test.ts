import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, IDS, openQueue, TEST_SCENARIO, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
let now: number;
beforeEach(async () => {
  realm = await createTestRealm();
  now = Math.floor(realm.clock.now() / 1000);
});
afterEach(() => realm.engine.close());

const NOTIFICATION_BOT_ID = 1;
const FIRST_NEW_MESSAGE_ID = TEST_SCENARIO.messages.length + 1;
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const remind = (params: Record<string, unknown>) =>
  realm.as('mark').post('/reminders', { scheduled_delivery_timestamp: now + 300, ...params });
const remindersOf = async (user: 'mark' | 'olivia' | 'mia') => (await realm.as(user).get('/reminders')).body.reminders;

/** Advances the clock past the reminder's time and returns the messages delivered to Mark since the scenario. */
async function deliver(): Promise<Record<string, any>[]> {
  realm.clock.advance(300_000);
  await realm.engine.scheduler.settled();
  const { body } = await realm.as('mark').get('/messages', { anchor: FIRST_NEW_MESSAGE_ID, num_before: 0, num_after: 100, apply_markdown: false });
  return body.messages;
}

// Message 2: Mark in general > welcome, "Thanks @**Olivia Owner**". Message 4: Olivia to Mark, "a direct hello".
const CHANNEL_REMINDER =
  'You requested a reminder for the following message.\n\n' +
  `@_**Mark Member|${IDS.mark}** [said](http://zulip.test/#narrow/channel/${IDS.general}-general/topic/welcome/near/2) in #**general>welcome@2**:\n` +
  '```quote\nThanks @**Olivia Owner**\n```';
const DIRECT_REMINDER_WITH_NOTE =
  'You requested a reminder for the following direct message. Note:\n > call back\n\n' +
  `@_**Olivia Owner|${IDS.olivia}** [said](http://zulip.test/#narrow/dm/${IDS.olivia},${IDS.mark}/near/4) to @_**Mark Member|${IDS.mark}**:\n` +
  '```quote\na direct hello\n```';

describe('POST /reminders', () => {
  it('schedules a reminder quoting a channel message and tells the user', async () => {
    const queue = openQueue(realm.engine, IDS.mark);
    const { status, body } = await remind({ message_id: 2 });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', reminder_id: 1 });
    expect(queue.events).toEqual([
      {
        id: 0,
        type: 'reminders',
        op: 'add',
        reminders: [
          {
            reminder_id: 1,
            to: [IDS.mark],
            type: 'private',
            content: CHANNEL_REMINDER,
            rendered_content: expect.stringContaining('<blockquote>'),
            scheduled_delivery_timestamp: now + 300,
            failed: false,
            reminder_target_message_id: 2,
          },
        ],
      },
    ]);
  });

  it('quotes a direct message with its note', async () => {
    await remind({ message_id: 4, note: 'call back\n' });
    expect(await remindersOf('mark')).toEqual([expect.objectContaining({ reminder_id: 1, content: DIRECT_REMINDER_WITH_NOTE, reminder_target_message_id: 4 })]);
    // The note is kept apart: the reminder rebuilt at delivery carries it again.
    expect((await deliver()).map((m) => [m.sender_id, m.content])).toEqual([[NOTIFICATION_BOT_ID, DIRECT_REMINDER_WITH_NOTE]]);
  });

  it('refuses a message the user cannot see, with "Invalid message(s)"', async () => {
    for (const messageId of [3, 999]) {
      await expectRefused(
        realm,
        () => realm.as('mia').post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: now + 300 }),
        error('Invalid message(s)'),
      );
    }
  });

  it('refuses a time not in the future and a note over the limit', async () => {
    await expectRefused(realm, () => remind({ message_id: 2, scheduled_delivery_timestamp: now }), error('Scheduled delivery time must be in the future.'));
    await expectRefused(realm, () => remind({ message_id: 2, note: 'n'.repeat(1001) }), error('Maximum reminder note length: 1000 characters'));
  });

  it('is not listed among scheduled messages, nor editable as one', async () => {
    await remind({ message_id: 2 });
    expect((await realm.as('mark').get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
    const { status, body } = await realm.as('mark').patch('/scheduled_messages/1', { content: 'x' });
    expect(status).toBe(404);
    expect(body).toEqual(error('Scheduled message does not exist'));
  });
});

describe('GET /reminders and the reminders register section', () => {
  it("lists the caller's reminders, earliest first", async () => {
    await remind({ message_id: 2, scheduled_delivery_timestamp: now + 900 });
    await remind({ message_id: 4, scheduled_delivery_timestamp: now + 600 });
    const { body } = await realm.as('mark').get('/reminders');
    expect(body.reminders.map((r: Record<string, unknown>) => [r.reminder_id, r.reminder_target_message_id])).toEqual([
      [2, 4],
      [1, 2],
    ]);
    const register = await realm.as('mark').post('/register', { fetch_event_types: ['reminders'] });
    expect(register.body.reminders).toEqual(body.reminders);
    expect((await realm.as('olivia').get('/reminders')).body.reminders).toEqual([]);
  });
});

describe('DELETE /reminders/{id}', () => {
  it('cancels the reminder with a remove event', async () => {
    await remind({ message_id: 2 });
    const queue = openQueue(realm.engine, IDS.mark);
    const { status, body } = await realm.as('mark').delete('/reminders/1');
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(queue.events).toEqual([{ id: 0, type: 'reminders', op: 'remove', reminder_id: 1 }]);
    expect(await remindersOf('mark')).toEqual([]);
  });

  it("answers 404 for someone else's reminder and for a scheduled message id", async () => {
    await remind({ message_id: 2 });
    await realm.as('mark').post('/scheduled_messages', { type: 'direct', to: [IDS.mia], content: 'x', scheduled_delivery_timestamp: now + 60 });
    for (const [user, id] of [['olivia', 1], ['mark', 2]] as const) {
      const { status, body } = await realm.as(user).delete(`/reminders/${id}`);
      expect(status).toBe(404);
      expect(body).toEqual(error('Reminder does not exist'));
    }
    expect((await remindersOf('mark')).map((r: { reminder_id: number }) => r.reminder_id)).toEqual([1]);
    const { body } = await realm.as('mark').get('/scheduled_messages');
    expect(body.scheduled_messages.map((m: { scheduled_message_id: number }) => m.scheduled_message_id)).toEqual([2]);
  });
});

describe('delivery of reminders', () => {
  it('Notification Bot sends the reminder, rebuilt from the message as it is now, and the reminder goes away', async () => {
    await remind({ message_id: 2 });
    // Message 2 is past the edit time limit, so the API cannot edit it any more.
    await realm.engine.db.messages.update(2, { content: 'Thanks, edited' });
    const queue = openQueue(realm.engine, IDS.mark);

    const delivered = await deliver();
    expect(delivered).toEqual([
      expect.objectContaining({
        sender_id: NOTIFICATION_BOT_ID,
        type: 'private',
        content: CHANNEL_REMINDER.replace('Thanks @**Olivia Owner**', 'Thanks, edited'),
        timestamp: now + 300,
      }),
    ]);
    expect(delivered[0].display_recipient.map((u: { id: number }) => u.id)).toEqual([NOTIFICATION_BOT_ID, IDS.mark]);
    expect(await remindersOf('mark')).toEqual([]);
    expect(queue.events.map((e) => [e.type, e.op ?? null])).toEqual([
      ['message', null],
      ['reminders', 'remove'],
    ]);
    expect(queue.events[1]).toEqual({ id: 1, type: 'reminders', op: 'remove', reminder_id: 1 });
  });

  it('falls back to the saved text when the message is gone', async () => {
    await remind({ message_id: 2 });
    expect((await realm.as('olivia').delete('/messages/2')).body).toEqual({ result: 'success', msg: '' });
    expect((await deliver()).map((m) => [m.sender_id, m.content])).toEqual([[NOTIFICATION_BOT_ID, CHANNEL_REMINDER]]);
  });
});
