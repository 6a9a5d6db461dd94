import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueOptions } from '../../src/engine/events/event-queue.ts';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { GROUP_ADMINISTRATORS, GROUP_MODERATORS } from '../../src/engine/permissions/system-groups.ts';
import { createTestRealm, openQueue, IDS, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const queueFor = (userId: number, extra: Partial<QueueOptions> = {}) => openQueue(realm.engine, userId, extra);

const now = () => realm.engine.nowSeconds();
const edit = (user: TestUser, id: number, params: Record<string, unknown>) => realm.as(user).patch(`/messages/${id}`, params);
const EDITED = { status: 200, body: { result: 'success', msg: '', detached_uploads: [] } };

/** The message as `user` reads it through GET /messages/{id}, the empty topic shown as itself. */
async function message(id: number, user: TestUser = 'mark'): Promise<Record<string, any>> {
  const { status, body } = await realm.as(user).get(`/messages/${id}`, { allow_empty_topic_name: true });
  expect({ id, user, status }).toEqual({ id, user, status: 200 });
  return body.message;
}

const EVERYONE = ['olivia', 'adam', 'mona', 'mark', 'mia', 'gail', 'bot'] as const;

/** The users who received the message: they read it with their own flags, not as channel history. */
async function holders(id: number): Promise<number[]> {
  const ids: number[] = [];
  for (const user of EVERYONE) {
    const { status, body } = await realm.as(user).get(`/messages/${id}`);
    if (status === 200 && !body.message.flags.includes('historical')) ids.push(IDS[user]);
  }
  return ids.sort((a, b) => a - b);
}

/** The ids of the messages `user` finds with `narrow`. */
async function idsIn(user: TestUser, narrow: unknown[]): Promise<number[]> {
  const { body } = await realm.as(user).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
  return body.messages.map((m: { id: number }) => m.id);
}

// No endpoint changes realm settings yet, so the tests that need one write it to storage.

async function send(user: TestUser, topic: string, content: string, to = 'general'): Promise<number> {
  const { body } = await realm.as(user).post('/messages', { type: 'channel', to, topic, content });
  return body.id as number;
}

describe('PATCH /messages/{id}: topic moves', () => {
  it('renames the topic of one message with change_one, recording the move', async () => {
    expect(await edit('mark', 2, { topic: 'greetings', send_notification_to_new_thread: false })).toEqual(EDITED);
    const row = await message(2);
    expect(row).toMatchObject({ subject: 'greetings', last_moved_timestamp: now() });
    expect(row).not.toHaveProperty('last_edit_timestamp');
    expect(row.edit_history).toEqual([{ user_id: IDS.mark, timestamp: now(), prev_topic: 'welcome', topic: 'greetings' }]);
    expect((await message(1)).subject).toBe('welcome');
    // The topic is found case-insensitively, and by a search for its words.
    expect(await idsIn('mia', [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'GREETINGS' }])).toEqual([2]);
    expect(await idsIn('mia', [{ operator: 'search', operand: 'greetings' }])).toEqual([2]);
  });

  it('sends update_message with the topic change and each user’s own flags', async () => {
    const olivia = queueFor(IDS.olivia);
    await edit('mark', 2, { topic: 'greetings', send_notification_to_new_thread: false });
    expect(olivia.events).toEqual([
      {
        id: 0,
        type: 'update_message',
        user_id: IDS.mark,
        edit_timestamp: now(),
        message_id: 2,
        message_ids: [2],
        rendering_only: false,
        stream_name: 'general',
        stream_id: IDS.general,
        propagate_mode: 'change_one',
        orig_subject: 'welcome',
        subject: 'greetings',
        topic_links: [],
        flags: ['read', 'mentioned'],
      },
    ]);
  });

  it('moves the whole topic with change_all, with a topic-only history entry on the other messages', async () => {
    const later = await send('mia', 'welcome', 'me too');
    const mia = queueFor(IDS.mia);
    await edit('mark', 2, { topic: 'hello', propagate_mode: 'change_all' });
    expect((await Promise.all([1, 2, later].map((id) => message(id)))).map((m) => m.subject)).toEqual(['hello', 'hello', 'hello']);
    expect((await message(1)).edit_history).toEqual([{ user_id: IDS.mark, timestamp: now(), prev_topic: 'welcome', topic: 'hello' }]);
    expect(mia.events[0]).toMatchObject({ message_id: 2, message_ids: [1, 2, later], propagate_mode: 'change_all' });
  });

  it('moves the message and the ones after it with change_later', async () => {
    const later = await send('mia', 'welcome', 'me too');
    await edit('mark', 2, { topic: 'hello', propagate_mode: 'change_later' });
    expect((await Promise.all([1, 2, later].map((id) => message(id)))).map((m) => m.subject)).toEqual(['welcome', 'hello', 'hello']);
  });

  it('does not count resolving or unresolving a topic as a move', async () => {
    await edit('mark', 2, { topic: '✔ welcome', propagate_mode: 'change_all' });
    expect(await message(1)).toMatchObject({ subject: '✔ welcome' });
    expect(await message(1)).not.toHaveProperty('last_moved_timestamp');
    await edit('mark', 2, { topic: 'welcome', propagate_mode: 'change_all' });
    expect(await message(2)).not.toHaveProperty('last_moved_timestamp');
    expect((await message(2)).edit_history).toHaveLength(2);
  });

  it('refuses marking the empty topic as resolved', async () => {
    const { body } = await edit('mark', 2, { topic: '✔ general chat' });
    expect(body).toEqual({ result: 'error', msg: 'General chat cannot be marked as resolved', code: 'BAD_REQUEST' });
  });

  it("shows the empty topic as the realm's display name to clients without empty_topic_name", async () => {
    const legacy = queueFor(IDS.olivia);
    const modern = queueFor(IDS.olivia, { capabilities: { ...NO_CAPABILITIES, empty_topic_name: true } });
    await edit('mark', 2, { topic: 'general chat' });
    expect((await message(2)).subject).toBe('');
    expect(legacy.events[0]).toMatchObject({ orig_subject: 'welcome', subject: 'general chat' });
    expect(modern.events[0]).toMatchObject({ orig_subject: 'welcome', subject: '' });
  });

  it('refuses a topic edit when the realm restricts topic moves to moderators', async () => {
    await realm.as('olivia').patch('/realm', { can_move_messages_between_topics_group: { new: GROUP_MODERATORS } });
    const { body } = await edit('mark', 2, { topic: 'nope' });
    expect(body).toEqual({ result: 'error', msg: "You don't have permission to edit this message", code: 'BAD_REQUEST' });
    expect((await message(2)).subject).toBe('welcome');
    expect(await edit('mona', 2, { topic: 'fine' })).toEqual(EDITED);
    expect((await message(2)).subject).toBe('fine');
  });

  it('lets resolving by the realm\'s resolve group, not its rename group, as upstream', async () => {
    await realm.as('olivia').patch('/realm', { can_move_messages_between_topics_group: { new: GROUP_ADMINISTRATORS } });
    expect(await edit('mark', 2, { topic: '✔ welcome', propagate_mode: 'change_all' })).toEqual(EDITED);
    expect((await message(2)).subject).toBe('✔ welcome');

    await realm.as('olivia').patch('/realm', { can_resolve_topics_group: { new: GROUP_MODERATORS } });
    expect(await edit('mark', 2, { topic: 'welcome', propagate_mode: 'change_all' })).toEqual({
      status: 400,
      body: { result: 'error', msg: "You don't have permission to resolve topics in this channel.", code: 'BAD_REQUEST' },
    });
    expect((await message(2)).subject).toBe('✔ welcome');
    expect(await edit('mona', 2, { topic: 'welcome', propagate_mode: 'change_all' })).toEqual(EDITED);
    expect((await message(2)).subject).toBe('welcome');
  });

  it("lets the channel's can_move_messages_within_channel_group rename topics despite the realm", async () => {
    await realm.as('olivia').patch('/realm', { can_move_messages_between_topics_group: { new: GROUP_ADMINISTRATORS } });
    const group = { direct_members: [IDS.mia], direct_subgroups: [] };
    expect((await realm.as('olivia').patch(`/streams/${IDS.general}`, { can_move_messages_within_channel_group: { new: group } })).status).toBe(200);
    expect(await edit('mia', 2, { topic: 'by mia' })).toEqual(EDITED);
    expect((await message(2)).subject).toBe('by mia');
    expect(await edit('mark', 2, { topic: 'by mark' })).toEqual({
      status: 400,
      body: { result: 'error', msg: "You don't have permission to edit this message", code: 'BAD_REQUEST' },
    });
    expect((await message(2)).subject).toBe('by mia');
  });

  it('refuses a topic edit past the move time limit, except for moderators', async () => {
    await realm.as('olivia').patch('/realm', { move_messages_within_stream_limit_seconds: 3600 });
    const { body } = await edit('mark', 2, { topic: 'late' });
    expect(body).toEqual({ result: 'error', msg: "The time limit for editing this message's topic has passed.", code: 'BAD_REQUEST' });
    expect((await message(2)).subject).toBe('welcome');
    expect(await edit('mona', 2, { topic: 'late' })).toEqual(EDITED);
    expect((await message(2)).subject).toBe('late');
  });

  it('refuses a change_all move reaching messages past the time limit, saying how many may move', async () => {
    await realm.as('olivia').patch('/realm', { move_messages_within_stream_limit_seconds: 3600 });
    const fresh = await send('mark', 'welcome', 'a fresh one');
    const { status, body } = await edit('mark', fresh, { topic: 'moved', propagate_mode: 'change_all' });
    expect(status).toBe(400);
    expect(body).toEqual({
      result: 'error',
      msg: 'You only have permission to move the 1/3 most recent messages in this topic.',
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      first_message_id_allowed_to_move: fresh,
      total_messages_in_topic: 3,
      total_messages_allowed_to_move: 1,
    });
    expect((await message(fresh)).subject).toBe('welcome');
    expect(await edit('mark', fresh, { topic: 'moved', propagate_mode: 'change_later' })).toEqual(EDITED);
    expect((await Promise.all([1, 2, fresh].map((id) => message(id)))).map((m) => m.subject)).toEqual(['welcome', 'welcome', 'moved']);
  });

  it('refuses the empty topic in a channel that requires topics', async () => {
    const id = await send('mark', 'rules', 'hi', 'strict');
    const { body } = await edit('mark', id, { topic: '' });
    expect(body).toEqual({ result: 'error', msg: 'Sending messages to "general chat" is not allowed in this channel.', code: 'BAD_REQUEST' });
  });
});

describe('PATCH /messages/{id}: channel moves', () => {
  it('moves a message to a public channel: old subscribers lose their rows, guests lose access', async () => {
    const gail = queueFor(IDS.gail);
    const mia = queueFor(IDS.mia);
    const olivia = queueFor(IDS.olivia, { capabilities: { ...NO_CAPABILITIES, bulk_message_deletion: true } });
    expect(await edit('mark', 2, { stream_id: IDS.design, send_notification_to_new_thread: false })).toEqual(EDITED);
    const moved = await message(2);
    expect(moved).toMatchObject({ stream_id: IDS.design, display_recipient: 'design', subject: 'welcome', last_moved_timestamp: now() });
    expect(moved.edit_history).toEqual([{ user_id: IDS.mark, timestamp: now(), prev_stream: IDS.general, stream: IDS.design }]);
    expect(await holders(2)).toEqual([IDS.olivia, IDS.mark]);

    expect(gail.events).toEqual([
      { id: 0, type: 'delete_message', message_id: 2, message_type: 'stream', stream_id: IDS.general, topic: 'welcome' },
    ]);
    const update = {
      type: 'update_message',
      user_id: IDS.mark,
      edit_timestamp: now(),
      message_id: 2,
      message_ids: [2],
      rendering_only: false,
      stream_name: 'general',
      stream_id: IDS.general,
      propagate_mode: 'change_one',
      orig_subject: 'welcome',
      new_stream_id: IDS.design,
    };
    // Mia still reads the public channel's history, so she follows the move.
    expect(mia.events).toEqual([{ id: 0, ...update, flags: ['read'] }]);
    expect(olivia.events).toEqual([{ id: 0, ...update, flags: ['read', 'mentioned'] }]);
    // It now has the channel's recipient, as a message sent there does.
    const sentThere = await send('olivia', 'x', 'y', 'design');
    expect(moved.recipient_id).toBe((await message(sentThere)).recipient_id);
  });

  it('moves a message to a private channel: non-subscribers lose access, subscribers get rows', async () => {
    expect((await realm.as('olivia').delete('/users/me/subscriptions', { subscriptions: ['secret'] })).status).toBe(200);
    const mia = queueFor(IDS.mia, { capabilities: { ...NO_CAPABILITIES, bulk_message_deletion: true } });
    await edit('mark', 2, { stream_id: IDS.secret });
    expect(await message(2)).toMatchObject({ stream_id: IDS.secret, display_recipient: 'secret' });
    expect(await holders(2)).toEqual([IDS.mark]);
    expect(mia.events).toEqual([
      { id: 0, type: 'delete_message', message_ids: [2], message_type: 'stream', stream_id: IDS.general, topic: 'welcome' },
    ]);
    // No one else may see it now.
    expect((await realm.as('mia').get('/messages/2/history')).body.msg).toBe('Invalid message(s)');
  });

  it('gives subscribers of a private channel without shared history read rows for moved messages', async () => {
    await realm.engine.db.subscriptions.update([IDS.olivia, IDS.secret], { active: 0 });
    const id = await send('mark', 'plans', 'moving soon');
    await realm.engine.db.subscriptions.update([IDS.olivia, IDS.secret], { active: 1 });
    // Olivia is subscribed to the channel but never received the message: only storage can arrange that.
    await realm.engine.db.user_messages.delete([IDS.olivia, id]);
    expect(await edit('mark', id, { stream_id: IDS.secret })).toEqual(EDITED);
    // The channel hides its history, so Olivia reads the message only through her new row, read and nothing else.
    expect((await message(id, 'olivia')).flags).toEqual(['read']);
  });

  it('refuses moving to a channel the caller cannot post in', async () => {
    const { body } = await edit('mark', 2, { stream_id: IDS.announce });
    expect(body).toEqual({ result: 'error', msg: 'You do not have permission to post in this channel.', code: 'BAD_REQUEST' });
    expect((await message(2)).stream_id).toBe(IDS.general);
  });

  it('refuses unknown channels and channels the caller cannot see with STREAM_DOES_NOT_EXIST', async () => {
    expect((await edit('mark', 2, { stream_id: 99 })).body).toEqual({
      result: 'error',
      msg: "Channel with ID '99' does not exist",
      code: 'STREAM_DOES_NOT_EXIST',
      stream_id: 99,
    });
    const id = await send('mia', 'x', 'hi');
    expect((await edit('mia', id, { stream_id: IDS.secret })).body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST', stream_id: IDS.secret });
  });

  it('refuses a channel move by a user outside the between-channels group', async () => {
    await realm.as('olivia').patch('/realm', { can_move_messages_between_channels_group: { new: GROUP_ADMINISTRATORS } });
    const { body } = await edit('mark', 2, { stream_id: IDS.design });
    expect(body).toEqual({ result: 'error', msg: "You don't have permission to move this message", code: 'BAD_REQUEST' });
    expect(await holders(2)).toEqual(EVERYONE.map((user) => IDS[user]).sort((a, b) => a - b));
    expect(await edit('adam', 2, { stream_id: IDS.design })).toEqual(EDITED);
    expect((await message(2)).stream_id).toBe(IDS.design);
  });

  it('refuses a channel move past the time limit, except for moderators', async () => {
    await realm.as('olivia').patch('/realm', { move_messages_between_streams_limit_seconds: 3600 });
    const { body } = await edit('mark', 2, { stream_id: IDS.design });
    expect(body).toEqual({ result: 'error', msg: "The time limit for editing this message's channel has passed", code: 'BAD_REQUEST' });
    expect((await message(2)).stream_id).toBe(IDS.general);
    expect(await edit('mona', 2, { stream_id: IDS.design })).toEqual(EDITED);
    expect((await message(2)).stream_id).toBe(IDS.design);
  });
});
