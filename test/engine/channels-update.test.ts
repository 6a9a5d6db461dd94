import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueOptions } from '../../src/engine/events/event-queue.ts';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

/** A channel object as a `stream` event carries it (the full object, as upstream sends). */
const channelObject = (streamId: number, name: string) =>
  expect.objectContaining({ stream_id: streamId, name, invite_only: expect.any(Boolean), subscriber_count: expect.any(Number), date_created: expect.any(Number) });

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const queueFor = (userId: number, extra: Partial<QueueOptions> = {}) => openQueue(realm.engine, userId, extra);
const patch = (user: TestUser, id: number, params: Record<string, unknown>) => realm.as(user).patch(`/streams/${id}`, params);
const archive = (user: TestUser, id: number) => realm.as(user).delete(`/streams/${id}`);
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
/** The channel as its owner, who is in every private channel of the scenario, fetches it. */
const row = async (id: number) => (await realm.as('olivia').get(`/streams/${id}`)).body.stream;
const success = { result: 'success', msg: '' };
/** Puts `userId` alone in the channel's can_administer_channel_group, as an administrator would. */
const letAdminister = async (id: number, userId: number) =>
  expect((await patch('adam', id, { can_administer_channel_group: { new: { direct_members: [userId], direct_subgroups: [] } } })).body).toEqual(success);
const update = (id: number, name: string, property: string, value: unknown, extra: Record<string, unknown> = {}) => ({
  id: expect.any(Number),
  type: 'stream',
  op: 'update',
  stream_id: id,
  name,
  property,
  value,
  ...extra,
});
const streamEvents = <E extends { type: string }>(events: E[]) => events.filter((e) => e.type === 'stream');

describe('PATCH /streams/{stream_id}: who may', () => {
  it('lets organization administrators change any channel', async () => {
    expect((await patch('adam', IDS.secret, { description: 'Hush' })).body).toEqual({ result: 'success', msg: '' });
    expect((await row(IDS.secret))!.description).toBe('Hush');
  });

  it('lets members of the channel’s can_administer_channel_group change it', async () => {
    await letAdminister(IDS.design, IDS.mia);
    expect((await patch('mia', IDS.design, { description: 'UX' })).body).toEqual(success);
    expect((await row(IDS.design)).description).toBe('UX');
  });

  it('tells a user who can see the channel but not administer it so', async () => {
    await expectRefused(realm, () => patch('mark', IDS.design, { description: 'x' }), error('You do not have permission to administer this channel.'));
    await expectRefused(realm, () => patch('mona', IDS.general, { description: 'x' }), error('You do not have permission to administer this channel.'));
    await expectRefused(realm, () => patch('gail', IDS.general, { description: 'x' }), error('You do not have permission to administer this channel.'));
  });

  it('tells a user who cannot see the channel only that the id is invalid', async () => {
    await expectRefused(realm, () => patch('mia', IDS.secret, { description: 'x' }), error('Invalid channel ID'));
    await expectRefused(realm, () => patch('adam', 99, { description: 'x' }), error('Invalid channel ID'));
  });
});

describe('PATCH /streams/{stream_id}: name and description', () => {
  it('renames a channel, telling its viewers under the old name', async () => {
    const mia = queueFor(IDS.mia);
    expect((await patch('adam', IDS.design, { new_name: ' ux ' })).body).toEqual(success);
    expect((await row(IDS.design)).name).toBe('ux');
    expect((await realm.as('mia').get('/get_stream_id', { stream: 'UX' })).body).toEqual({ ...success, stream_id: IDS.design });
    expect(streamEvents(mia.events)).toEqual([update(IDS.design, 'design', 'name', 'ux')]);
  });

  it('allows changing only the case of a name', async () => {
    expect((await patch('adam', IDS.design, { new_name: 'Design' })).body).toEqual(success);
    expect((await row(IDS.design)).name).toBe('Design');
  });

  it('refuses the same name, a taken name and a blank one', async () => {
    await expectRefused(realm, () => patch('adam', IDS.design, { new_name: 'design' }), error('Channel already has that name.'));
    await expectRefused(realm, () => patch('adam', IDS.design, { new_name: 'GENERAL' }), {
      ...error("Channel 'GENERAL' already exists", 'CHANNEL_ALREADY_EXISTS'),
      channel_name: 'GENERAL',
    });
    await expectRefused(realm, () => patch('adam', IDS.design, { new_name: ' ' }), error("Channel name can't be empty."));
  });

  it('changes the description and sends its rendering along', async () => {
    const mia = queueFor(IDS.mia);
    await patch('adam', IDS.design, { description: 'Pixels\nand **type**' });
    expect(await row(IDS.design)).toMatchObject({ description: 'Pixels and **type**', rendered_description: '<p>Pixels and <strong>type</strong></p>' });
    expect(streamEvents(mia.events)).toEqual([
      update(IDS.design, 'design', 'description', 'Pixels and **type**', { rendered_description: '<p>Pixels and <strong>type</strong></p>' }),
    ]);
  });
});

describe('PATCH /streams/{stream_id}: privacy', () => {
  it('makes a public channel private: its viewers learn it, the others lose it', async () => {
    const adam = queueFor(IDS.adam);
    const mia = queueFor(IDS.mia);
    await patch('olivia', IDS.design, { is_private: true });
    expect(await row(IDS.design)).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    expect(streamEvents(adam.events)).toEqual([
      update(IDS.design, 'design', 'invite_only', true, { history_public_to_subscribers: false, is_web_public: false }),
      update(IDS.design, 'design', 'history_public_to_subscribers', false),
    ]);
    expect(streamEvents(mia.events)).toEqual([
      { id: expect.any(Number), type: 'stream', op: 'delete', streams: [channelObject(IDS.design, 'design')], stream_ids: [IDS.design] },
    ]);
  });

  it('makes a private channel public: new viewers get the whole channel', async () => {
    const mia = queueFor(IDS.mia);
    await patch('olivia', IDS.secret, { is_private: false });
    expect(await row(IDS.secret)).toMatchObject({ invite_only: false, history_public_to_subscribers: true });
    expect(streamEvents(mia.events)).toEqual([
      { id: expect.any(Number), type: 'stream', op: 'create', streams: [expect.objectContaining({ stream_id: IDS.secret, invite_only: false, subscriber_count: 2 })] },
    ]);
  });

  it('shares a private channel’s history', async () => {
    await patch('olivia', IDS.secret, { history_public_to_subscribers: true });
    expect((await row(IDS.secret)).history_public_to_subscribers).toBe(true);
  });

  it('refuses a public channel with protected history', async () => {
    await expectRefused(realm, () => patch('olivia', IDS.design, { history_public_to_subscribers: false }), error('Invalid parameters'));
  });

  it('requires access to the channel’s content to change its privacy', async () => {
    await expectRefused(realm, () => patch('adam', IDS.secret, { is_private: false }), error('Channel content access is required.'));
  });

  it('refuses web-public while spectators are not let in, and to non-owners once they are', async () => {
    await expectRefused(realm, () => patch('olivia', IDS.design, { is_web_public: true }), error('Web-public channels are not enabled.'));
    await realm.as('olivia').patch('/realm', { enable_spectator_access: true });
    await expectRefused(realm, () => patch('adam', IDS.design, { is_web_public: true }), error('Insufficient permission'));
    const gail = queueFor(IDS.gail);
    await patch('olivia', IDS.design, { is_web_public: true });
    expect((await row(IDS.design)).is_web_public).toBe(true);
    expect(streamEvents(gail.events)).toEqual([
      { id: expect.any(Number), type: 'stream', op: 'create', streams: [expect.objectContaining({ stream_id: IDS.design, is_web_public: true })] },
    ]);
  });
});

describe('PATCH /streams/{stream_id}: default channel, retention, folder, topics policy', () => {
  it('adds and removes a default channel with default_streams', async () => {
    const mia = queueFor(IDS.mia);
    await patch('adam', IDS.design, { is_default_stream: true });
    await patch('adam', IDS.general, { is_default_stream: false });
    expect((await realm.as('mia').post('/register', { fetch_event_types: ['default_streams'] })).body.realm_default_streams).toEqual([IDS.design]);
    expect(mia.events.filter((e) => e.type === 'default_streams').map((e) => e.default_streams)).toEqual([[IDS.general, IDS.design], [IDS.design]]);
  });

  it('refuses a private default channel, and default changes by channel administrators who are not realm administrators', async () => {
    await expectRefused(realm, () => patch('adam', IDS.secret, { is_default_stream: true }), error('A default channel cannot be private.'));
    await expectRefused(realm, () => patch('adam', IDS.general, { is_private: true }), error('A default channel cannot be private.'));
    await letAdminister(IDS.design, IDS.mark);
    await expectRefused(realm, () => patch('mark', IDS.design, { is_default_stream: true }), error('You do not have permission to change default channels.'));
  });

  it('lets owners set message retention', async () => {
    const mia = queueFor(IDS.mia);
    await patch('olivia', IDS.design, { message_retention_days: 7 });
    await patch('olivia', IDS.design, { message_retention_days: 'unlimited' });
    await patch('olivia', IDS.design, { message_retention_days: 'realm_default' });
    expect(streamEvents(mia.events).map((e) => (e as { value?: unknown }).value)).toEqual([7, -1, null]);
    expect((await row(IDS.design)).message_retention_days).toBe(null);
    await expectRefused(realm, () => patch('adam', IDS.design, { message_retention_days: 7 }), error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'));
  });

  it('moves a channel into a folder and out of it', async () => {
    const mia = queueFor(IDS.mia);
    await patch('adam', IDS.design, { folder_id: 1 });
    expect((await row(IDS.design)).folder_id).toBe(1);
    await patch('adam', IDS.design, { folder_id: null });
    expect((await row(IDS.design)).folder_id).toBe(null);
    expect(streamEvents(mia.events)).toEqual([update(IDS.design, 'design', 'folder_id', 1), update(IDS.design, 'design', 'folder_id', null)]);
    await expectRefused(realm, () => patch('adam', IDS.design, { folder_id: 99 }), error('Invalid channel folder ID'));
  });

  it('sets the topics policy, empty_topic_only only while every message is in the empty topic', async () => {
    const mia = queueFor(IDS.mia);
    await patch('adam', IDS.design, { topics_policy: 'empty_topic_only' });
    expect(streamEvents(mia.events)).toEqual([update(IDS.design, 'design', 'topics_policy', 'empty_topic_only')]);
    expect((await row(IDS.design)).topics_policy).toBe('empty_topic_only');
    await expectRefused(
      realm,
      () => patch('adam', IDS.general, { topics_policy: 'empty_topic_only' }),
      error('To enable this configuration, all messages in this channel must be in the "general chat" topic. Consider renaming or deleting other topics.'),
    );
  });

  it('allows empty_topic_only in a channel whose messages are all in the empty topic', async () => {
    await realm.as('olivia').post('/messages', { type: 'stream', to: 'design', topic: '', content: 'hi' });
    expect((await patch('adam', IDS.design, { topics_policy: 'empty_topic_only' })).body).toEqual(success);
    expect((await row(IDS.design)).topics_policy).toBe('empty_topic_only');
  });

  it('leaves topics policies other than inherit to the realm’s can_set_topics_policy_group', async () => {
    await letAdminister(IDS.design, IDS.mark);
    await expectRefused(realm, () => patch('mark', IDS.design, { topics_policy: 'allow_empty_topic' }), error('Insufficient permission'));
    // Back to inherit is a change only from another policy.
    await patch('adam', IDS.design, { topics_policy: 'allow_empty_topic' });
    expect((await patch('mark', IDS.design, { topics_policy: 'inherit' })).body).toEqual(success);
    expect((await row(IDS.design)).topics_policy).toBe('inherit');
  });
});

describe('PATCH /streams/{stream_id}: group settings', () => {
  it('changes a setting to a group or a collection, with one event each', async () => {
    const mia = queueFor(IDS.mia);
    await patch('adam', IDS.design, {
      can_send_message_group: { new: 4 },
      can_remove_subscribers_group: { new: { direct_members: [IDS.mark], direct_subgroups: [3] }, old: 3 },
    });
    expect(await row(IDS.design)).toMatchObject({
      can_send_message_group: 4,
      can_remove_subscribers_group: { direct_members: [IDS.mark], direct_subgroups: [3] },
    });
    expect(streamEvents(mia.events)).toEqual([
      update(IDS.design, 'design', 'can_remove_subscribers_group', { direct_members: [IDS.mark], direct_subgroups: [3] }),
      update(IDS.design, 'design', 'can_send_message_group', 4),
    ]);
  });

  it('sends nothing when the value does not change', async () => {
    const mia = queueFor(IDS.mia);
    expect((await patch('adam', IDS.design, { can_send_message_group: { new: 7 } })).body).toEqual(success);
    expect(mia.events).toEqual([]);
    expect((await row(IDS.design)).can_send_message_group).toBe(7);
  });

  it('refuses when the expected old value is not the current one', async () => {
    await expectRefused(realm, () => patch('adam', IDS.design, { can_send_message_group: { new: 4, old: 3 } }), error("'old' value does not match the expected value.", 'EXPECTATION_MISMATCH'));
  });

  it('refuses groups the setting may not use, and malformed updates', async () => {
    await expectRefused(
      realm,
      () => patch('adam', IDS.design, { can_administer_channel_group: { new: 7 } }),
      error("'can_administer_channel_group' setting cannot be set to 'role:everyone' group."),
    );
    await expectRefused(realm, () => patch('adam', IDS.design, { can_send_message_group: 4 }), error('can_send_message_group is not a dict'));
  });
});

describe('DELETE /streams/{stream_id}', () => {
  it('archives a channel: clients with archived_channels get an update, others a delete', async () => {
    const modern = queueFor(IDS.mia, { capabilities: { ...NO_CAPABILITIES, archived_channels: true } });
    const legacy = queueFor(IDS.mia);
    const { status, body } = await archive('adam', IDS.design);
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect((await row(IDS.design)).is_archived).toBe(true);
    // The notification bot's note is the channel's first message; the archiving comes after it.
    const archiving = (events: { type: string; [key: string]: unknown }[]) => streamEvents(events).filter((e) => e.property !== 'first_message_id');
    expect(archiving(modern.events)).toEqual([update(IDS.design, 'design', 'is_archived', true)]);
    expect(archiving(legacy.events)).toEqual([
      { id: expect.any(Number), type: 'stream', op: 'delete', streams: [channelObject(IDS.design, 'design')], stream_ids: [IDS.design] },
    ]);
  });

  it('leaves a note from the notification bot, then takes no more messages', async () => {
    await archive('adam', IDS.design);
    const note = (await realm.as('mark').get('/messages/5', { apply_markdown: false })).body.message;
    expect(note).toMatchObject({ sender_id: 1, stream_id: IDS.design, subject: 'channel events', content: 'Channel #**design** has been archived.' });
    const { body } = await realm.as('mark').post('/messages', { type: 'stream', to: 'design', topic: 't', content: 'late' });
    expect(body).toEqual({ ...error("Channel 'design' does not exist", 'STREAM_DOES_NOT_EXIST'), stream: 'design' });
  });

  it('stops a default channel being one', async () => {
    const mia = queueFor(IDS.mia);
    await archive('adam', IDS.general);
    expect((await realm.as('mia').post('/register', { fetch_event_types: ['default_streams'] })).body.realm_default_streams).toEqual([]);
    expect(mia.events.find((e) => e.type === 'default_streams')).toMatchObject({ default_streams: [] });
  });

  it('lets the channel’s administrators archive it', async () => {
    await letAdminister(IDS.design, IDS.mark);
    expect((await archive('mark', IDS.design)).body).toEqual(success);
    expect((await row(IDS.design)).is_archived).toBe(true);
  });

  it('refuses others, unknown channels and archived ones', async () => {
    await expectRefused(realm, () => archive('mark', IDS.design), error('You do not have permission to administer this channel.'));
    await expectRefused(realm, () => archive('mia', IDS.secret), error('Invalid channel ID'));
    await expectRefused(realm, () => archive('adam', 99), error('Invalid channel ID'));
    await archive('adam', IDS.design);
    await expectRefused(realm, () => archive('adam', IDS.design), error('Channel is already deactivated'));
  });
});
