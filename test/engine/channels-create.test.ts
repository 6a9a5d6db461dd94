import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueOptions } from '../../src/engine/events/event-queue.ts';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectRefused as expectRefusedBy } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

/** The scenario has 5 channels and 4 messages: the next channel and message ids. */
const NEW_ID = 6;
const NEXT_MESSAGE = 5;
const NOW = Date.UTC(2026, 0, 1, 12) / 1000;

const queueFor = (userId: number, extra: Partial<QueueOptions> = {}) => openQueue(realm.engine, userId, extra);
const create = (user: TestUser, params: Record<string, unknown>) =>
  realm.as(user).post('/channels/create', { subscribers: [IDS[user]], ...params });
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const channel = async (id = NEW_ID) => (await realm.as('olivia').get(`/streams/${id}`)).body.stream;
/** A message as `user` fetches it, with its Markdown source as content. */
const message = async (id: number, user: TestUser = 'mark') =>
  (await realm.as(user).get(`/messages/${id}`, { apply_markdown: false })).body.message;

const expectRefused = (user: TestUser, params: Record<string, unknown>, expected: Record<string, unknown>, status = 400) =>
  expectRefusedBy(realm, () => create(user, params), expected, status);

describe('POST /channels/create: the new channel', () => {
  it('returns the new id and stores every given setting, with the creator as creator', async () => {
    const { status, body } = await create('mark', { name: ' music ', description: 'All **music**\nall day', subscribers: [IDS.mark, IDS.mia] });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', id: NEW_ID });
    expect(await channel()).toMatchObject({
      stream_id: NEW_ID,
      name: 'music',
      description: 'All **music** all day',
      rendered_description: '<p>All <strong>music</strong> all day</p>',
      date_created: NOW,
      creator_id: IDS.mark,
      invite_only: false,
      is_web_public: false,
      history_public_to_subscribers: true,
      message_retention_days: null,
      folder_id: null,
      topics_policy: 'inherit',
      is_archived: false,
      subscriber_count: 2,
      stream_post_policy: 1,
      can_send_message_group: 7,
      can_remove_subscribers_group: 3,
      can_administer_channel_group: { direct_members: [IDS.mark], direct_subgroups: [] },
      can_add_subscribers_group: { direct_members: [IDS.mark], direct_subgroups: [] },
    });
  });

  it('subscribes exactly the listed users, the creator only when listed', async () => {
    await create('mark', { name: 'music', subscribers: [IDS.mia, IDS.bot] });
    expect((await realm.as('mark').get(`/streams/${NEW_ID}/members`)).body.subscribers).toEqual([IDS.mia, IDS.bot]);
    await create('mark', { name: 'jazz', subscribers: [IDS.mark, IDS.mia] });
    expect((await realm.as('mark').get(`/streams/${NEW_ID + 1}/members`)).body.subscribers).toEqual([IDS.mark, IDS.mia]);
    const subscription = (await realm.as('mia').get('/users/me/subscriptions')).body.subscriptions.find(
      (s: { stream_id: number }) => s.stream_id === NEW_ID,
    );
    expect(subscription).toMatchObject({ name: 'music', is_muted: false, pin_to_top: false, desktop_notifications: null });
  });

  it('is private with protected history when invite_only, unless history is shared', async () => {
    await create('mark', { name: 'hidden', invite_only: true });
    expect(await channel()).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    await create('mark', { name: 'shared', invite_only: true, history_public_to_subscribers: true });
    expect(await channel(NEW_ID + 1)).toMatchObject({ invite_only: true, history_public_to_subscribers: true });
  });

  it('keeps a public channel’s history shared whatever is asked', async () => {
    await create('mark', { name: 'open', history_public_to_subscribers: false });
    expect((await channel()).history_public_to_subscribers).toBe(true);
  });

  it('puts the channel in a folder', async () => {
    await create('mark', { name: 'music', folder_id: 1 });
    expect((await channel()).folder_id).toBe(1);
  });

  it('refuses an unknown folder', async () => {
    await expectRefused('mark', { name: 'music', folder_id: 99 }, error('Invalid channel folder ID'));
  });
});

describe('POST /channels/create: the notification bot’s messages', () => {
  it('opens the channel with a note on who created it, how private it is and its description', async () => {
    await create('mark', { name: 'music', description: 'Tunes', subscribers: [IDS.mark, IDS.mia] });
    const note = await message(NEXT_MESSAGE);
    expect(note).toMatchObject({
      id: NEXT_MESSAGE,
      sender_id: 1,
      stream_id: NEW_ID,
      subject: 'channel events',
      client: 'Internal',
      content: `**Public** channel created by @_**Mark Member|${IDS.mark}**. **Description:**\n\`\`\`\` quote\nTunes\n\`\`\`\``,
      flags: ['read'],
    });
    expect((await channel()).first_message_id).toBe(NEXT_MESSAGE);
    expect((await message(NEXT_MESSAGE, 'mia')).flags).toEqual([]);
  });

  it('names the privacy of a private channel and a missing description', async () => {
    await create('mark', { name: 'hidden', invite_only: true });
    expect((await message(NEXT_MESSAGE)).content).toBe(
      `**Private, protected history** channel created by @_**Mark Member|${IDS.mark}**. **Description:**\n\`\`\`\` quote\n*No description.*\n\`\`\`\``,
    );
  });

  it('writes the note in the empty topic of an empty-topic-only channel', async () => {
    await create('mona', { name: 'chat', topics_policy: 'empty_topic_only' });
    expect((await realm.as('mona').get(`/messages/${NEXT_MESSAGE}`, { allow_empty_topic_name: true })).body.message.subject).toBe('');
  });

  it('announces the channel in the realm’s announcement channel (its first default channel) when asked', async () => {
    await create('mark', { name: 'music', announce: true });
    expect(await message(NEXT_MESSAGE)).toMatchObject({
      sender_id: 1,
      stream_id: IDS.general,
      subject: 'new channels',
      content: `@_**Mark Member|${IDS.mark}** created a new channel #**music**.`,
    });
    expect((await message(NEXT_MESSAGE + 1)).stream_id).toBe(NEW_ID);
  });

  it('announces in the configured announcement channel, even one the creator may not post in', async () => {
    await realm.as('olivia').patch('/realm', { new_stream_announcements_stream_id: IDS.announce });
    await create('mia', { name: 'music', announce: true });
    expect(await message(NEXT_MESSAGE, 'mia')).toMatchObject({ stream_id: IDS.announce, subject: 'new channels' });
  });

  it('announces nothing without announce, or in a realm without an announcement channel', async () => {
    await create('mark', { name: 'quiet' });
    await realm.as('olivia').patch('/realm', { new_stream_announcements_stream_id: -1 });
    await create('mark', { name: 'silent', announce: true });
    // Mark is in general, where an announcement would go, and in both new channels.
    const { body } = await realm.as('mark').get('/messages', { anchor: NEXT_MESSAGE, num_before: 0, num_after: 100 });
    expect(body.messages.map((m: { id: number; stream_id: number }) => [m.id, m.stream_id])).toEqual([
      [NEXT_MESSAGE, NEW_ID],
      [NEXT_MESSAGE + 1, NEW_ID + 1],
    ]);
  });
});

describe('POST /channels/create: events', () => {
  it('tells every member about a public channel, and subscribers about their subscription and its members', async () => {
    const mia = queueFor(IDS.mia);
    const olivia = queueFor(IDS.olivia);
    const gail = queueFor(IDS.gail);
    await create('mark', { name: 'music', subscribers: [IDS.mark, IDS.mia] });

    const created = olivia.events.find((e) => e.type === 'stream' && e.op === 'create')!;
    expect(created.streams).toEqual([expect.objectContaining({ stream_id: NEW_ID, name: 'music', subscriber_count: 0, first_message_id: null })]);
    expect(olivia.events.find((e) => e.op === 'peer_add')).toEqual({
      id: expect.any(Number),
      type: 'subscription',
      op: 'peer_add',
      stream_ids: [NEW_ID],
      user_ids: [IDS.mark, IDS.mia],
    });

    const added = mia.events.find((e) => e.type === 'subscription' && e.op === 'add')!;
    expect(added.subscriptions).toEqual([
      expect.objectContaining({ stream_id: NEW_ID, name: 'music', subscribers: [IDS.mark, IDS.mia], desktop_notifications: false }),
    ]);
    expect(mia.events.find((e) => e.op === 'peer_add')).toBeUndefined();
    expect(mia.events.find((e) => e.type === 'message')).toMatchObject({ message: { id: NEXT_MESSAGE, subject: 'channel events' } });

    // A guest does not see a public channel it is not in.
    expect(gail.events.filter((e) => e.type === 'stream' || e.type === 'subscription')).toEqual([]);
  });

  it('keeps inherited notification settings null for clients with notification_settings_null', async () => {
    const modern = queueFor(IDS.mia, { capabilities: { ...NO_CAPABILITIES, notification_settings_null: true } });
    await create('mark', { name: 'music', subscribers: [IDS.mark, IDS.mia] });
    const added = modern.events.find((e) => e.type === 'subscription' && e.op === 'add')!;
    expect(added.subscriptions).toEqual([expect.objectContaining({ desktop_notifications: null, wildcard_mentions_notify: null })]);
    expect(added).not.toHaveProperty('notification_defaults');
  });

  it('tells only subscribers and administrators about a private channel', async () => {
    const queues = Object.fromEntries((['olivia', 'adam', 'mona', 'mia', 'gail'] as const).map((u) => [u, queueFor(IDS[u])]));
    await create('mark', { name: 'hidden', invite_only: true, subscribers: [IDS.gail] });
    const told = (name: keyof typeof queues) => queues[name].events.some((e) => e.type === 'stream' && e.op === 'create');
    expect([told('olivia'), told('adam'), told('mona'), told('mia'), told('gail')]).toEqual([true, true, false, false, true]);
  });

  it('announces a default channel with default_streams', async () => {
    const mia = queueFor(IDS.mia);
    const gail = queueFor(IDS.gail);
    await create('adam', { name: 'lobby', is_default_stream: true });
    expect((await realm.as('mia').post('/register', { fetch_event_types: ['default_streams'] })).body.realm_default_streams).toEqual([
      IDS.general,
      NEW_ID,
    ]);
    expect(mia.events.find((e) => e.type === 'default_streams')).toEqual({
      id: expect.any(Number),
      type: 'default_streams',
      default_streams: [IDS.general, NEW_ID],
    });
    expect(gail.events.find((e) => e.type === 'default_streams')).toBeUndefined();
  });
});

describe('POST /channels/create: group settings', () => {
  it('stores a group id, a collection of members and subgroups, and the compact forms upstream keeps', async () => {
    await create('mark', {
      name: 'music',
      can_send_message_group: 3,
      can_administer_channel_group: { direct_members: [IDS.mia, IDS.mia], direct_subgroups: [4] },
      can_remove_subscribers_group: { direct_members: [], direct_subgroups: [] },
      can_delete_any_message_group: { direct_members: [], direct_subgroups: [5] },
    });
    expect(await channel()).toMatchObject({
      can_send_message_group: 3,
      stream_post_policy: 2,
      is_announcement_only: true,
      can_administer_channel_group: { direct_members: [IDS.mia], direct_subgroups: [4] },
      can_remove_subscribers_group: 1,
      can_delete_any_message_group: 5,
    });
  });

  it('refuses unknown groups and users', async () => {
    await expectRefused('mark', { name: 'music', can_send_message_group: 99 }, error('Invalid user group ID: 99'));
    await expectRefused(
      'mark',
      { name: 'music', can_send_message_group: { direct_members: [999], direct_subgroups: [] } },
      error('Invalid user ID: 999'),
    );
  });

  it('refuses role:everyone where guests may not hold the permission, and role:internet anywhere', async () => {
    await expectRefused(
      'mark',
      { name: 'music', can_administer_channel_group: 7 },
      error("'can_administer_channel_group' setting cannot be set to 'role:everyone' group."),
    );
    await expectRefused(
      'mark',
      { name: 'music', can_send_message_group: 8 },
      error("'can_send_message_group' setting cannot be set to 'role:internet' group."),
    );
  });

  it('refuses a malformed group-setting value', async () => {
    await expectRefused('mark', { name: 'music', can_send_message_group: { direct_members: [1] } }, error('Invalid can_send_message_group'));
    await expectRefused('mark', { name: 'music', can_send_message_group: 'admins' }, error('can_send_message_group is not valid JSON'));
  });
});

describe('POST /channels/create: topics policy', () => {
  it('is inherit by default and any policy for moderators and above', async () => {
    await create('mark', { name: 'plain' });
    expect((await channel()).topics_policy).toBe('inherit');
    for (const [index, policy] of (['allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] as const).entries()) {
      expect((await create('mona', { name: `policy${index}`, topics_policy: policy })).body).toEqual({ result: 'success', msg: '', id: NEW_ID + 1 + index });
      expect((await channel(NEW_ID + 1 + index)).topics_policy).toBe(policy);
    }
  });

  it('accepts the policy JSON-encoded too', async () => {
    await create('mona', { name: 'chat', topics_policy: '"empty_topic_only"' });
    expect((await channel()).topics_policy).toBe('empty_topic_only');
  });

  it('refuses members a policy other than inherit, and unknown policies', async () => {
    await expectRefused('mark', { name: 'music', topics_policy: 'disable_empty_topic' }, error('Insufficient permission'));
    await expectRefused('mona', { name: 'music', topics_policy: 'no_topics' }, error('Invalid topics_policy'));
  });
});

describe('POST /channels/create: message retention', () => {
  it('takes a number of days, unlimited or realm_default from an owner', async () => {
    await create('olivia', { name: 'days', message_retention_days: 30 });
    await create('olivia', { name: 'forever', message_retention_days: 'unlimited' });
    await create('olivia', { name: 'inherited', message_retention_days: '"realm_default"' });
    expect([(await channel()).message_retention_days, (await channel(NEW_ID + 1)).message_retention_days, (await channel(NEW_ID + 2)).message_retention_days]).toEqual([30, -1, null]);
  });

  it('lets anyone ask for the realm default', async () => {
    expect(await create('mark', { name: 'music', message_retention_days: 'realm_default' })).toEqual({
      status: 200,
      body: { result: 'success', msg: '', id: NEW_ID },
    });
    expect((await channel()).message_retention_days).toBe(null);
  });

  it('refuses other values to non-owners with UNAUTHORIZED_PRINCIPAL', async () => {
    await expectRefused('adam', { name: 'music', message_retention_days: 30 }, error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'));
  });

  it('refuses values that are not a positive number of days', async () => {
    await expectRefused('olivia', { name: 'music', message_retention_days: 0 }, {
      ...error("Bad value for 'message_retention_days': 0", 'REQUEST_VARIABLE_INVALID'),
      var_name: 'message_retention_days',
      bad_value: 0,
    });
    await expectRefused('olivia', { name: 'music', message_retention_days: 'forever' }, {
      ...error("Bad value for 'message_retention_days': forever", 'REQUEST_VARIABLE_INVALID'),
      var_name: 'message_retention_days',
      bad_value: 'forever',
    });
  });
});

describe('POST /channels/create: web-public and default channels', () => {
  it('refuses web-public channels while the realm has no spectator access', async () => {
    await expectRefused('olivia', { name: 'public', is_web_public: true }, error('Web-public channels are not enabled.'));
  });

  it('lets owners create web-public channels once spectators are let in, and tells guests too', async () => {
    await realm.as('olivia').patch('/realm', { enable_spectator_access: true });
    const gail = queueFor(IDS.gail);
    expect(await create('olivia', { name: 'public', is_web_public: true })).toEqual({ status: 200, body: { result: 'success', msg: '', id: NEW_ID } });
    expect(await channel()).toMatchObject({ is_web_public: true, invite_only: false, history_public_to_subscribers: true });
    expect(gail.events.find((e) => e.type === 'stream' && e.op === 'create')).toMatchObject({ streams: [{ stream_id: NEW_ID }] });
    expect((await message(NEXT_MESSAGE, 'olivia')).content).toMatch(/^\*\*Web-public\*\* channel created by/);
  });

  it('refuses web-public channels to administrators who are not owners, and private web-public channels', async () => {
    await realm.as('olivia').patch('/realm', { enable_spectator_access: true });
    await expectRefused('adam', { name: 'public', is_web_public: true }, error('Insufficient permission'));
    await expectRefused('olivia', { name: 'public', is_web_public: true, invite_only: true }, error('Invalid parameters'));
  });

  it('makes default channels for administrators only, and never private ones', async () => {
    await expectRefused('mark', { name: 'lobby', is_default_stream: true }, error('Insufficient permission'));
    await expectRefused('adam', { name: 'lobby', is_default_stream: true, invite_only: true }, error('A default channel cannot be private.'));
  });
});

describe('POST /channels/create: refusals', () => {
  it('refuses a name already taken, whatever its case', async () => {
    await expectRefused('mark', { name: 'General' }, { ...error("Channel 'General' already exists", 'CHANNEL_ALREADY_EXISTS'), channel_name: 'General' });
  });

  it('refuses blank, long and unprintable names', async () => {
    await expectRefused('mark', { name: '   ' }, error("Channel name can't be empty."));
    await expectRefused('mark', { name: 'x'.repeat(61) }, error('Channel name too long (limit: 60 characters).'));
    await expectRefused('mark', { name: 'bad\u0007name' }, error('Invalid character in channel name, at position 4.'));
  });

  it('refuses a description over the limit', async () => {
    await expectRefused('mark', { name: 'music', description: 'x'.repeat(1025) }, error('description is too long (limit: 1024 characters)'));
  });

  it('requires name and subscribers', async () => {
    await expectRefused('mark', { name: undefined }, { ...error("Missing 'name' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'name' });
    await expectRefusedBy(realm, () => realm.as('mark').post('/channels/create', { name: 'music' }), {
      ...error("Missing 'subscribers' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'subscribers',
    });
  });

  it('refuses unknown and deactivated subscribers', async () => {
    await expectRefused('mark', { name: 'music', subscribers: [999] }, error('No such user'));
    await expectRefused('mark', { name: 'music', subscribers: [1] }, error('No such user'));
    await realm.as('olivia').delete(`/users/${IDS.mia}`);
    await expectRefused('mark', { name: 'music', subscribers: [IDS.mia] }, error('User is deactivated'));
  });

  it('refuses guests, who may create no channel', async () => {
    await expectRefused('gail', { name: 'music' }, error('Insufficient permission'));
  });
});
