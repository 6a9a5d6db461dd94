import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueOptions } from '../../src/engine/events/event-queue.ts';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, openQueue, IDS, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const queueFor = (userId: number, extra: Partial<QueueOptions> = {}) => openQueue(realm.engine, userId, extra);

const flags = (user: TestUser, params: Record<string, unknown>) => realm.as(user).post('/messages/flags', params);
/** The user's flags on a message, as GET /messages/{id} shows them. */
async function flagsOf(user: TestUser, id: number): Promise<string[]> {
  const { status, body } = await realm.as(user).get(`/messages/${id}`);
  expect(status).toBe(200);
  return body.message.flags;
}

/** The ids of the messages `user` finds with `narrow` (no narrow: the messages they received). */
async function idsIn(user: TestUser, narrow: unknown[] = []): Promise<number[]> {
  const { body } = await realm.as(user).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
  return body.messages.map((m: { id: number }) => m.id);
}
const is = (operand: string) => [{ operator: 'is', operand }];
const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

async function send(user: TestUser, to: string, topic: string, content = 'hi'): Promise<number> {
  const { body } = await realm.as(user).post('/messages', { type: 'channel', to, topic, content });
  return body.id as number;
}

describe('POST /messages/flags', () => {
  it('stars messages, answering and announcing only the ones that changed', async () => {
    const mark = queueFor(IDS.mark);
    const mia = queueFor(IDS.mia);
    expect((await flags('mark', { messages: [1, 2], op: 'add', flag: 'starred' })).body).toEqual({ result: 'success', msg: '', messages: [1, 2] });
    expect((await flags('mark', { messages: [2, 1], op: 'add', flag: 'starred' })).body.messages).toEqual([]);
    expect(await flagsOf('mark', 1)).toEqual(['read', 'starred']);
    expect(await idsIn('mark', is('starred'))).toEqual([1, 2]);
    expect(mark.events).toEqual([
      { id: 0, type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [1, 2], all: false },
      { id: 1, type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [], all: false },
    ]);
    expect(mia.events).toEqual([]);
  });

  it('marks messages unread with the details clients need for their unread counts', async () => {
    const olivia = queueFor(IDS.olivia);
    const { body } = await flags('olivia', { messages: [2, 4], op: 'remove', flag: 'read' });
    expect(body.messages).toEqual([2, 4]);
    expect(await flagsOf('olivia', 4)).toEqual([]);
    expect(await idsIn('olivia', is('unread'))).toEqual([2, 4]);
    expect(await idsIn('olivia', is('dm'))).toEqual([4]);
    expect(olivia.events).toEqual([
      {
        id: 0,
        type: 'update_message_flags',
        op: 'remove',
        operation: 'remove',
        flag: 'read',
        messages: [2, 4],
        all: false,
        message_details: {
          '2': { type: 'stream', stream_id: IDS.general, topic: 'welcome', unmuted_stream_msg: true, mentioned: true },
          '4': { type: 'private', user_ids: [IDS.mark] },
        },
      },
    ]);
  });

  it("shows the empty topic in message_details as the realm's display name to older clients", async () => {
    const id = await send('mark', 'general', '');
    await flags('mia', { messages: [id], op: 'add', flag: 'read' });
    const legacy = queueFor(IDS.mia);
    await flags('mia', { messages: [id], op: 'remove', flag: 'read' });
    expect(legacy.events[0].message_details).toEqual({ [id]: { type: 'stream', stream_id: IDS.general, topic: 'general chat', unmuted_stream_msg: true } });
  });

  it('skips channel messages of channels the caller is not subscribed to when marking unread', async () => {
    expect((await realm.as('mia').delete('/users/me/subscriptions', { subscriptions: ['general'] })).status).toBe(200);
    const { body } = await flags('mia', { messages: [1, 2], op: 'remove', flag: 'read' });
    expect(body.messages).toEqual([]);
    expect(await flagsOf('mia', 1)).toEqual(['read']);
    expect(await idsIn('mia', is('unread'))).toEqual([]);
  });

  it('gives channel history the caller never received a historical row when starring it', async () => {
    const id = await send('mark', 'design', 'mock');
    const { body } = await flags('mia', { messages: [id], op: 'add', flag: 'starred' });
    expect(body.messages).toEqual([id]);
    expect(await flagsOf('mia', id)).toEqual(['read', 'starred', 'historical']);
    expect(await idsIn('mia', is('starred'))).toEqual([id]);
    expect(await idsIn('mia')).toEqual([1, 2, id]);
  });

  it('refuses server-managed and unknown flags', async () => {
    expect((await flags('mark', { messages: [1], op: 'add', flag: 'mentioned' })).body).toEqual(error("Flag not editable: 'mentioned'"));
    expect((await flags('mark', { messages: [1], op: 'add', flag: 'bogus' })).body).toEqual(error("Invalid flag: 'bogus'"));
    expect((await flags('mark', { messages: [1], op: 'toggle', flag: 'starred' })).body).toEqual(error('Invalid op'));
  });

  it('refuses the whole request when one message is not visible, changing nothing', async () => {
    await expectRefused(realm, () => flags('mia', { messages: [1, 3], op: 'add', flag: 'starred' }), error('Invalid message(s)'));
    expect(await flagsOf('mia', 1)).toEqual(['read']);
    expect((await flags('mia', { messages: [999], op: 'add', flag: 'starred' })).body).toEqual(error('Invalid message(s)'));
  });

  it('requires messages as a JSON list of integers', async () => {
    expect((await flags('mark', { messages: '1,2', op: 'add', flag: 'starred' })).body).toEqual(error('messages is not valid JSON'));
    expect((await flags('mark', { op: 'add', flag: 'starred' })).body).toMatchObject({ code: 'REQUEST_VARIABLE_MISSING', var_name: 'messages' });
  });
});

describe('POST /messages/flags/narrow', () => {
  it('updates the flag across a range of a narrow and reports the range', async () => {
    const later = await send('mia', 'general', 'news');
    const mark = queueFor(IDS.mark);
    const { body } = await realm.as('mark').post('/messages/flags/narrow', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 10,
      narrow: [{ operator: 'channel', operand: 'general' }],
      op: 'add',
      flag: 'read',
    });
    expect(body).toEqual({
      result: 'success',
      msg: '',
      processed_count: 3,
      updated_count: 1,
      first_processed_id: 1,
      last_processed_id: later,
      found_oldest: true,
      found_newest: true,
    });
    expect(mark.events).toEqual([{ id: 0, type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [later], all: false }]);
  });

  it('reports an empty range with null ids', async () => {
    const { body } = await realm.as('mark').post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 0,
      num_after: 5,
      include_anchor: false,
      narrow: [],
      op: 'add',
      flag: 'starred',
    });
    expect(body).toMatchObject({ processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null, found_newest: true });
  });

  it('refuses excluding the anchor in the middle of the range, and bad flags, changing nothing', async () => {
    const params = { anchor: '2', num_before: 5, num_after: 5, narrow: [], op: 'add', flag: 'starred' };
    const narrowFlags = (extra: Record<string, unknown>) => () => realm.as('mark').post('/messages/flags/narrow', { ...params, ...extra });
    await expectRefused(realm, narrowFlags({ include_anchor: false }), error('The anchor can only be excluded at an end of the range'));
    await expectRefused(realm, narrowFlags({ flag: 'historical' }), error("Flag not editable: 'historical'"));
    await expectRefused(realm, narrowFlags({ anchor: 'soon' }), error('Invalid anchor'));
    expect(await idsIn('mark', is('starred'))).toEqual([]);
  });

  it('requires the anchor', async () => {
    const { body } = await realm.as('mark').post('/messages/flags/narrow', { num_before: 0, num_after: 1, narrow: [], op: 'add', flag: 'read' });
    expect(body).toEqual({ result: 'error', msg: "Missing 'anchor' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'anchor' });
  });
});

describe('mark as read shortcuts', () => {
  it('POST /mark_all_as_read marks every unread message read with one all:true event', async () => {
    await send('olivia', 'general', 'one');
    await send('olivia', 'design', 'two');
    const mark = queueFor(IDS.mark);
    const { body } = await realm.as('mark').post('/mark_all_as_read');
    expect(body).toEqual({ result: 'success', msg: '', complete: true });
    expect(await idsIn('mark', is('unread'))).toEqual([]);
    expect(mark.events).toEqual([{ id: 0, type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true }]);
  });

  it('POST /mark_stream_as_read marks only that channel read', async () => {
    const inGeneral = await send('olivia', 'general', 'one');
    const inDesign = await send('olivia', 'design', 'two');
    const mark = queueFor(IDS.mark);
    const { body } = await realm.as('mark').post('/mark_stream_as_read', { stream_id: IDS.general });
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await idsIn('mark', is('unread'))).toEqual([inDesign]);
    expect(await flagsOf('mark', inGeneral)).toEqual(['read']);
    expect(mark.events).toEqual([{ id: 0, type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [inGeneral], all: false }]);
  });

  it('POST /mark_stream_as_read refuses unknown channels and private channels the caller cannot see', async () => {
    const unknown = await realm.as('mark').post('/mark_stream_as_read', { stream_id: 99 });
    expect(unknown.body).toEqual({ result: 'error', msg: "Channel with ID '99' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream_id: 99 });
    expect((await realm.as('mia').post('/mark_stream_as_read', { stream_id: IDS.secret })).body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST' });
  });

  it('POST /mark_topic_as_read marks only that topic read, case-insensitively', async () => {
    const lunch = await send('olivia', 'general', 'Lunch');
    const other = await send('olivia', 'general', 'other');
    const { body } = await realm.as('mark').post('/mark_topic_as_read', { stream_id: IDS.general, topic_name: 'lunch' });
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await idsIn('mark', is('unread'))).toEqual([other]);
    expect(await flagsOf('mark', lunch)).toEqual(['read']);
  });

  it("POST /mark_topic_as_read reads the realm's empty-topic display name as the empty topic", async () => {
    const empty = await send('olivia', 'general', '');
    const { body } = await realm.as('mark').post('/mark_topic_as_read', { stream_id: IDS.general, topic_name: 'general chat' });
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await idsIn('mark', is('unread'))).toEqual([]);
    expect(await flagsOf('mark', empty)).toEqual(['read']);
  });

  it('POST /mark_topic_as_read refuses a topic the caller has no messages in', async () => {
    const { body } = await realm.as('mark').post('/mark_topic_as_read', { stream_id: IDS.general, topic_name: 'nowhere' });
    expect(body).toEqual(error("No such topic 'nowhere'"));
  });
});
