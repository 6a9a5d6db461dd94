import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueOptions } from '../../src/engine/events/event-queue.ts';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { GROUP_ADMINISTRATORS, GROUP_EVERYONE, GROUP_MEMBERS, GROUP_MODERATORS, GROUP_OWNERS } from '../../src/engine/permissions/system-groups.ts';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, openQueue, IDS, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const queueFor = (userId: number, extra: Partial<QueueOptions> = {}) => openQueue(realm.engine, userId, extra);

const remove = (user: TestUser, id: number) => realm.as(user).delete(`/messages/${id}`);
const db = () => realm.engine.db;

/** The rows left behind for a message: receipts and reactions of a deleted message are rows no endpoint returns. */
async function leftovers(id: number) {
  return {
    message: await db().messages.get(id),
    flags: await db().user_messages.where('message_id').equals(id).count(),
    reactions: await db().reactions.where('message_id').equals(id).count(),
  };
}

const DELETED = { status: 200, body: { result: 'success', msg: '' } };
const GUESTS_REFUSED = { result: 'error', msg: "'can_delete_any_message_group' setting cannot be set to 'role:everyone' group.", code: 'BAD_REQUEST' };
const INVALID = { result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' };

/** Whether `user` (an administrator unless said otherwise) can still read the message with GET /messages/{id}. */
async function exists(id: number, user: TestUser = 'olivia'): Promise<boolean> {
  const { status, body } = await realm.as(user).get(`/messages/${id}`);
  if (status === 200) return true;
  expect(body).toEqual(INVALID);
  return false;
}

const DENIED = { result: 'error', msg: "You don't have permission to delete this message", code: 'BAD_REQUEST' };

describe('DELETE /messages/{id}', () => {
  it('lets an administrator delete any message, with its flags and reactions', async () => {
    await realm.as('mia').post('/messages/2/reactions', { emoji_name: 'octopus' });
    const { status, body } = await remove('adam', 2);
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(await exists(2)).toBe(false);
    expect(await leftovers(2)).toEqual({ message: undefined, flags: 0, reactions: 0 });
    expect(await exists(1)).toBe(true);
  });

  it('tells everyone who could see it, one event per id unless the client takes bulk deletions', async () => {
    const single = queueFor(IDS.mia);
    const bulk = queueFor(IDS.gail, { capabilities: { ...NO_CAPABILITIES, bulk_message_deletion: true, empty_topic_name: true } });
    const outsider = queueFor(IDS.olivia, { eventTypes: new Set(['message']) });
    await remove('mark', 2);
    expect(single.events).toEqual([{ id: 0, type: 'delete_message', message_id: 2, message_type: 'stream', stream_id: IDS.general, topic: 'welcome' }]);
    expect(bulk.events).toEqual([{ id: 0, type: 'delete_message', message_ids: [2], message_type: 'stream', stream_id: IDS.general, topic: 'welcome' }]);
    expect(outsider.events).toEqual([]);
  });

  it('describes a deleted direct message without channel fields, to its participants only', async () => {
    const mark = queueFor(IDS.mark);
    const mia = queueFor(IDS.mia);
    await remove('olivia', 4);
    expect(mark.events).toEqual([{ id: 0, type: 'delete_message', message_id: 4, message_type: 'private' }]);
    expect(mia.events).toEqual([]);
  });

  it("shows the empty topic as the realm's display name to clients without empty_topic_name", async () => {
    const { body } = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: '', content: 'x' });
    const mia = queueFor(IDS.mia);
    await remove('mark', body.id);
    expect(mia.events[0]).toMatchObject({ topic: 'general chat' });
  });

  it('lets senders delete their own messages, and bot owners their bots’ messages', async () => {
    expect(await remove('mark', 2)).toEqual(DELETED);
    expect(await exists(2)).toBe(false);
    const { body } = await realm.as('bot').post('/messages', { type: 'channel', to: 'general', topic: 'bots', content: 'beep' });
    expect(await remove('mark', body.id)).toEqual(DELETED);
    expect(await exists(body.id)).toBe(false);
  });

  it("refuses deleting someone else's message, changing nothing", async () => {
    await expectRefused(realm, () => remove('mia', 2), DENIED);
  });

  it('refuses once the realm deletion time limit has passed', async () => {
    // No endpoint changes realm settings yet.
    await db().realm.update(1, { message_content_delete_limit_seconds: 60 });
    const { body } = await remove('mark', 2);
    expect(body).toEqual({ result: 'error', msg: 'The time limit for deleting this message has passed', code: 'BAD_REQUEST' });
    expect(await exists(2)).toBe(true);
    expect(await remove('adam', 2)).toEqual(DELETED);
    expect(await exists(2)).toBe(false);
  });

  it("refuses senders outside the realm's can_delete_own_message_group, unless the channel's own group holds them", async () => {
    const restricted = await realm.as('olivia').patch('/realm', { can_delete_own_message_group: { new: GROUP_ADMINISTRATORS } });
    expect(restricted.body).toMatchObject({ result: 'success', can_delete_own_message_group: GROUP_ADMINISTRATORS });
    await expectRefused(realm, () => remove('mark', 2), DENIED);
    // A channel's group adds to the realm's: it never takes away, and here it gives back.
    const granted = await realm.as('olivia').patch(`/streams/${IDS.general}`, { can_delete_own_message_group: { new: GROUP_MEMBERS } });
    expect(granted.body).toEqual({ result: 'success', msg: '' });
    expect(await remove('mark', 2)).toEqual(DELETED);
  });

  it("lets the realm's can_delete_any_message_group, and a channel's, delete anyone's message; an administrator outside both may not", async () => {
    // The realm's group is the administrators by default; narrowed to the owners, an administrator is refused.
    const narrowed = await realm.as('olivia').patch('/realm', { can_delete_any_message_group: { new: GROUP_OWNERS } });
    expect(narrowed.body).toMatchObject({ result: 'success', can_delete_any_message_group: GROUP_OWNERS });
    await expectRefused(realm, () => remove('adam', 2), DENIED);
    expect((await remove('mona', 1)).body).toEqual(DENIED);
    const widened = await realm.as('olivia').patch(`/streams/${IDS.general}`, { can_delete_any_message_group: { new: GROUP_MODERATORS } });
    expect(widened.body).toEqual({ result: 'success', msg: '' });
    expect(await remove('mona', 1)).toEqual(DELETED);
    expect(await exists(1)).toBe(false);
    expect(await remove('olivia', 2)).toEqual(DELETED);
  });

  it("keeps guests out of the realm's can_delete_any_message_group, as upstream's server does", async () => {
    await expectRefused(realm, () => realm.as('olivia').patch('/realm', { can_delete_any_message_group: { new: GROUP_EVERYONE } }), GUESTS_REFUSED);
  });

  it('answers "Invalid message(s)" for a message the caller cannot see or that does not exist', async () => {
    expect((await remove('mia', 3)).body).toEqual({ result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
    expect((await remove('adam', 3)).body).toEqual({ result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
    expect((await remove('adam', 999)).body).toEqual({ result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
    expect(await exists(3, 'mark')).toBe(true);
  });
});
