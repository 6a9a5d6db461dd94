import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueOptions } from '../../src/engine/events/event-queue.ts';
import { GROUP_MEMBERS } from '../../src/engine/permissions/system-groups.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const queueFor = (userId: number, extra: Partial<QueueOptions> = {}) => openQueue(realm.engine, userId, extra);
/** Whether the user is subscribed, from the channel's members as the owner (in every channel of the scenario) sees them. */
const isActive = async (userId: number, channelId: number): Promise<boolean> =>
  (await realm.as('olivia').get(`/streams/${channelId}/members`)).body.subscribers.includes(userId);
const unsubscribe = (user: Parameters<TestRealm['as']>[0], params: Record<string, unknown>) => realm.as(user).delete('/users/me/subscriptions', params);

const expectRefusal = (send: () => Promise<ApiResult>, body: Record<string, unknown>) => expectRefused(realm, send, body);

describe('DELETE /users/me/subscriptions', () => {
  it('unsubscribes the caller, listing removed and already unsubscribed names', async () => {
    const { status, body } = await unsubscribe('mia', { subscriptions: ['general', 'design'] });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', removed: ['general'], not_removed: ['design'] });
    // /register lists the channels one left, with the subscription's settings kept.
    const { body: state } = await realm.as('mia').post('/register', { fetch_event_types: ['subscription'] });
    expect(state.subscriptions.map((s: { stream_id: number }) => s.stream_id)).not.toContain(IDS.general);
    expect(state.unsubscribed).toEqual([expect.objectContaining({ stream_id: IDS.general, color: '#76ce90' })]);
  });

  it('sends subscription remove to the user and peer_remove to everyone else who sees subscribers', async () => {
    const mark = queueFor(IDS.mark);
    const olivia = queueFor(IDS.olivia);
    const gail = queueFor(IDS.gail);
    await unsubscribe('mark', { subscriptions: ['design', 'general'] });
    expect(mark.events.slice(0, 1)).toEqual([
      {
        id: 0,
        type: 'subscription',
        op: 'remove',
        subscriptions: [
          { name: 'design', stream_id: IDS.design },
          { name: 'general', stream_id: IDS.general },
        ],
      },
    ]);
    expect(mark.events.slice(1).map((e) => e.type)).toEqual(['update_message_flags', 'update_message_flags']);
    expect(olivia.events).toEqual([
      { id: 0, type: 'subscription', op: 'peer_remove', stream_ids: [IDS.design], user_ids: [IDS.mark] },
      { id: 1, type: 'subscription', op: 'peer_remove', stream_ids: [IDS.general], user_ids: [IDS.mark] },
    ]);
    // The guest sees general's subscribers (she is in it), not design's.
    expect(gail.events).toEqual([{ id: 0, type: 'subscription', op: 'peer_remove', stream_ids: [IDS.general], user_ids: [IDS.mark] }]);
  });

  it('makes a private channel disappear for a member who leaves it, and tells only its remaining viewers', async () => {
    const mark = queueFor(IDS.mark);
    const adam = queueFor(IDS.adam);
    const mia = queueFor(IDS.mia);
    await unsubscribe('mark', { subscriptions: ['secret'] });
    expect(mark.events.map((e) => [e.type, e.op])).toEqual([
      ['subscription', 'remove'],
      ['stream', 'delete'],
      ['update_message_flags', 'add'],
    ]);
    expect(mark.events[1]).toEqual({
      id: 1,
      type: 'stream',
      op: 'delete',
      streams: [expect.objectContaining({ stream_id: IDS.secret, name: 'secret', invite_only: true, subscriber_count: 1 })],
      stream_ids: [IDS.secret],
    });
    expect(adam.events).toEqual([{ id: 0, type: 'subscription', op: 'peer_remove', stream_ids: [IDS.secret], user_ids: [IDS.mark] }]);
    expect(mia.events).toEqual([]);
  });

  it('marks what was unread in the channel as read, as upstream does after one leaves', async () => {
    await realm.as('olivia').post('/messages', { type: 'stream', to: 'design', topic: 'colors', content: 'blue?' });
    const mark = queueFor(IDS.mark);
    await unsubscribe('mark', { subscriptions: ['design'] });
    expect((await realm.as('mark').get('/messages/5')).body.message.flags).toEqual(['read']);
    expect(mark.events.at(-1)).toEqual({
      id: 1,
      type: 'update_message_flags',
      op: 'add',
      operation: 'add',
      flag: 'read',
      messages: [5],
      all: false,
    });
  });

  it('lets an administrator unsubscribe anyone, from any channel', async () => {
    const { body } = await unsubscribe('adam', { subscriptions: ['secret', 'general'], principals: [IDS.mark, IDS.olivia] });
    expect(body).toEqual({ result: 'success', msg: '', removed: ['secret', 'general', 'secret', 'general'], not_removed: [] });
    expect(await isActive(IDS.mark, IDS.secret)).toBe(false);
    expect(await isActive(IDS.olivia, IDS.general)).toBe(false);
  });

  it('accepts principals by API email', async () => {
    const { body } = await unsubscribe('adam', { subscriptions: ['general'], principals: ['mia@zulip.test'] });
    expect(body).toEqual({ result: 'success', msg: '', removed: ['general'], not_removed: [] });
    expect(await isActive(IDS.mia, IDS.general)).toBe(false);
  });

  it('lets a user unsubscribe a bot they own from channels they can access', async () => {
    const { body } = await unsubscribe('mark', { subscriptions: ['general'], principals: [IDS.bot] });
    expect(body).toEqual({ result: 'success', msg: '', removed: ['general'], not_removed: [] });
    expect(await isActive(IDS.bot, IDS.general)).toBe(false);
  });

  it('refuses a bot owner a channel they cannot access', async () => {
    await realm.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], principals: [IDS.bot] });
    expect(await isActive(IDS.bot, IDS.secret)).toBe(true);
    await realm.as('mark').delete('/users/me/subscriptions', { subscriptions: ['secret'] });
    await expectRefusal(() => unsubscribe('mark', { subscriptions: ['secret'], principals: [IDS.bot] }), error('Insufficient permission'));
  });

  it('refuses a member removing someone else, and someone else\u2019s bot', async () => {
    await expectRefusal(() => unsubscribe('mia', { subscriptions: ['general'], principals: [IDS.mark] }), error('Insufficient permission'));
    await expectRefusal(() => unsubscribe('mia', { subscriptions: ['general'], principals: [IDS.bot] }), error('Insufficient permission'));
    await expectRefusal(() => unsubscribe('mona', { subscriptions: ['general'], principals: [IDS.mia] }), error('Insufficient permission'));
  });

  it('lets members of can_remove_subscribers_group remove others from channels they can access', async () => {
    for (const id of [IDS.design, IDS.secret]) {
      await realm.as('olivia').patch(`/streams/${id}`, { can_remove_subscribers_group: { new: GROUP_MEMBERS } });
    }
    const { body } = await unsubscribe('mia', { subscriptions: ['design'], principals: [IDS.olivia] });
    expect(body).toEqual({ result: 'success', msg: '', removed: ['design'], not_removed: [] });
    expect(await isActive(IDS.olivia, IDS.design)).toBe(false);
    // The group does not reach a private channel the caller cannot access.
    await expectRefusal(() => unsubscribe('mia', { subscriptions: ['secret'], principals: [IDS.olivia] }), error('Insufficient permission'));
    // Nor does it make a guest able to remove anyone.
    await realm.as('olivia').patch(`/streams/${IDS.general}`, {
      can_remove_subscribers_group: { new: { direct_members: [IDS.gail], direct_subgroups: [] } },
    });
    await expectRefusal(() => unsubscribe('gail', { subscriptions: ['general'], principals: [IDS.mia] }), error('Insufficient permission'));
  });

  it('lets a guest leave a channel', async () => {
    const { body } = await unsubscribe('gail', { subscriptions: ['general'] });
    expect(body).toEqual({ result: 'success', msg: '', removed: ['general'], not_removed: [] });
    expect(await isActive(IDS.gail, IDS.general)).toBe(false);
  });

  it('refuses an unknown channel with STREAM_DOES_NOT_EXIST naming it, changing nothing', async () => {
    await expectRefusal(() => unsubscribe('mark', { subscriptions: ['design', 'nowhere'] }), {
      ...error("Channel 'nowhere' does not exist", 'STREAM_DOES_NOT_EXIST'),
      stream: 'nowhere',
    });
  });

  it('refuses unknown and deactivated principals with 400 BAD_REQUEST', async () => {
    await expectRefusal(() => unsubscribe('adam', { subscriptions: ['general'], principals: [999] }), error('No such user'));
    await expectRefusal(() => unsubscribe('adam', { subscriptions: ['general'], principals: ['ghost@zulip.test'] }), error('No such user'));
    await realm.as('olivia').delete(`/users/${IDS.mia}`);
    await expectRefusal(() => unsubscribe('adam', { subscriptions: ['general'], principals: [IDS.mia] }), error('User is deactivated'));
  });

  it('checks the names and requires the list', async () => {
    await expectRefusal(() => unsubscribe('mark', { subscriptions: [''] }), error("Channel name can't be empty."));
    await expectRefusal(() => unsubscribe('mark', { subscriptions: [1] }), error('subscriptions[0] is not a string'));
    await expectRefusal(() => realm.as('mark').delete('/users/me/subscriptions', {}), {
      ...error("Missing 'subscriptions' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'subscriptions',
    });
  });

  it('reads its parameters from the query string too, as zulip-js sends them', async () => {
    const { body } = await realm.as('mia').request('DELETE', `/users/me/subscriptions?subscriptions=${encodeURIComponent('["general"]')}`);
    expect(body).toEqual({ result: 'success', msg: '', removed: ['general'], not_removed: [] });
    expect(await isActive(IDS.mia, IDS.general)).toBe(false);
  });
});
