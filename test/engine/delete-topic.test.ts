import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const success = { result: 'success', msg: '' };
const deleteTopic = (channelId: number, topic_name: string, user: 'adam' | 'mark' | 'olivia' = 'adam') =>
  realm.as(user).post(`/streams/${channelId}/delete_topic`, { topic_name });
const send = async (to: string, topic: string, content = 'x'): Promise<number> =>
  (await realm.as('olivia').post('/messages', { type: 'stream', to, topic, content })).body.id;
/** A client that takes bulk deletions, as upstream's do. */
const bulkDeletions = { capabilities: { ...NO_CAPABILITIES, bulk_message_deletion: true } };
/** The ids of the channel's messages, as its administrator (subscribed to every channel here) fetches them. */
const idsIn = async (channel: number): Promise<number[]> => {
  const narrow = [{ operator: 'channel', operand: channel }];
  const { body } = await realm.as('olivia').get('/messages', { anchor: 'oldest', num_before: 0, num_after: 1000, narrow });
  return body.messages.map((m: { id: number }) => m.id);
};
const fetchMessage = (id: number) => realm.as('olivia').get(`/messages/${id}`, { apply_markdown: false });
const deleted = { status: 400, body: { result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' } };

describe('POST /streams/{stream_id}/delete_topic', () => {
  it("deletes the topic's messages, ignoring case, and tells who could see them, with the channel's new first message", async () => {
    const other = await send('general', 'lunch');
    const mark = openQueue(realm.engine, IDS.mark, bulkDeletions);
    expect(await deleteTopic(IDS.general, 'WELCOME')).toEqual({ status: 200, body: { ...success, complete: true } });
    expect(await idsIn(IDS.general)).toEqual([other]);
    // No flags row outlives its message: only storage shows that.
    expect(await realm.engine.db.user_messages.where('message_id').anyOf([1, 2]).count()).toBe(0);
    expect(mark.events).toEqual([
      { id: 0, type: 'delete_message', message_ids: [2, 1], message_type: 'stream', stream_id: IDS.general, topic: 'welcome' },
      { id: 1, type: 'stream', op: 'update', stream_id: IDS.general, name: 'general', property: 'first_message_id', value: other },
    ]);
  });

  it('deletes in batches of 100, newest first, one event each', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 101; i++) ids.push(await send('design', 'bulk'));
    const mark = openQueue(realm.engine, IDS.mark, { ...bulkDeletions, eventTypes: new Set(['delete_message']) });
    expect((await deleteTopic(IDS.design, 'bulk')).body).toEqual({ ...success, complete: true });
    const newestFirst = [...ids].reverse();
    expect(mark.events.map((event) => event.message_ids)).toEqual([newestFirst.slice(0, 100), newestFirst.slice(100)]);
    expect(await idsIn(IDS.design)).toEqual([]);
  });

  it('reads the empty-topic display name as the empty topic, and answers complete for a topic without messages', async () => {
    const id = await send('general', '');
    const displayName = (await realm.engine.db.realm.get(1))!.empty_topic_display_name;
    expect((await deleteTopic(IDS.general, displayName)).body).toEqual({ ...success, complete: true });
    expect(await fetchMessage(id)).toEqual(deleted);
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await deleteTopic(IDS.general, 'nothing here')).body).toEqual({ ...success, complete: true });
    expect(mark.events).toEqual([]);
  });

  it('in a channel without shared history, deletes only the messages the administrator received', async () => {
    const created = await realm.as('olivia').post('/channels/create', {
      name: 'hidden', subscribers: [IDS.olivia], invite_only: true, history_public_to_subscribers: false,
    });
    const before = await send('hidden', 'plans', 'before');
    await realm.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'hidden' }], principals: [IDS.adam] });
    const after = await send('hidden', 'plans', 'after');
    expect((await deleteTopic(created.body.id, 'plans')).body).toEqual({ ...success, complete: true });
    expect(await fetchMessage(after)).toEqual(deleted);
    expect((await fetchMessage(before)).body.message.content).toBe('before');
  });

  it('refuses a member, a channel the administrator cannot read and an unknown channel', async () => {
    await expectRefused(realm, () => deleteTopic(IDS.general, 'welcome', 'mark'), {
      result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL',
    });
    await expectRefused(realm, () => deleteTopic(IDS.secret, 'plans'), { result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' });
    await expectRefused(realm, () => deleteTopic(999, 'plans'), { result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' });
  });
});
