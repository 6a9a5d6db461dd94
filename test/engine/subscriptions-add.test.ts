import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueOptions } from '../../src/engine/events/event-queue.ts';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const queueFor = (userId: number, extra: Partial<QueueOptions> = {}) => openQueue(realm.engine, userId, extra);
const expectRefusal = (send: () => Promise<ApiResult>, body: Record<string, unknown>) => expectRefused(realm, send, body);

/** The user's subscription to a channel as GET /users/me/subscriptions shows it; undefined when not subscribed. */
const subscriptionOf = async (user: TestUser, channelId: number) =>
  (await realm.as(user).get('/users/me/subscriptions')).body.subscriptions.find((s: { stream_id: number }) => s.stream_id === channelId);

/** Which of /register's lists holds the channel for the user: subscribed, left, or never joined. */
async function standing(user: TestUser, channelId: number): Promise<string | undefined> {
  const { body } = await realm.as(user).post('/register', { fetch_event_types: ['subscription'] });
  return ['subscriptions', 'unsubscribed', 'never_subscribed'].find((list) =>
    body[list].some((s: { stream_id: number }) => s.stream_id === channelId),
  );
}

/** The ids of the messages `user` received after the scenario's four, with what the test compares. */
async function newMessagesOf(user: TestUser) {
  const { body } = await realm.as(user).get('/messages', { anchor: 5, num_before: 0, num_after: 100, apply_markdown: false });
  return body.messages.map((m: Record<string, any>) => ({
    id: m.id,
    sender_id: m.sender_id,
    type: m.type,
    client: m.client,
    recipients: m.type === 'private' ? m.display_recipient.map((r: { id: number }) => r.id) : m.stream_id,
    content: m.content,
  }));
}

const channelId = async (name: string): Promise<number> => (await realm.as('mark').get('/get_stream_id', { stream: name })).body.stream_id;

describe('POST /users/me/subscriptions', () => {
  it('subscribes the caller, with a color of their own and settings that inherit', async () => {
    const { status, body } = await realm.as('mia').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', subscribed: { [IDS.mia]: ['design'] }, already_subscribed: {} });
    expect(await subscriptionOf('mia', IDS.design)).toMatchObject({
      stream_id: IDS.design,
      subscriber_count: 3,
      color: '#fae589',
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
    });
    // The API never returns the first message a subscriber may see.
    expect((await realm.engine.db.subscriptions.get([IDS.mia, IDS.design]))!.first_message_id_seen).toBe(0);
  });

  it('sends the new subscriber the full subscription with its subscribers, and peer_add to those who see subscribers', async () => {
    const mia = queueFor(IDS.mia);
    const peers = [IDS.olivia, IDS.adam, IDS.mona, IDS.mark, IDS.bot, IDS.gail].map((id) => [id, queueFor(id)] as const);
    await realm.as('mia').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] });
    expect(mia.events).toHaveLength(1);
    expect(mia.events[0]).toMatchObject({
      id: 0,
      type: 'subscription',
      op: 'add',
      subscriptions: [
        {
          stream_id: IDS.design,
          name: 'design',
          color: '#fae589',
          subscribers: [IDS.olivia, IDS.mark, IDS.mia],
          subscriber_count: 3,
          in_home_view: true,
          // Without notification_settings_null, the user's defaults stand in for null.
          desktop_notifications: false,
          audible_notifications: false,
          push_notifications: false,
          email_notifications: false,
          wildcard_mentions_notify: true,
        },
      ],
    });
    expect(Object.keys(mia.events[0]).sort()).toEqual(['id', 'op', 'subscriptions', 'type']);
    for (const [id, queue] of peers) {
      // Guests do not see the subscribers of public channels they are not in.
      const expected = id === IDS.gail ? [] : [{ id: 0, type: 'subscription', op: 'peer_add', stream_ids: [IDS.design], user_ids: [IDS.mia] }];
      expect(queue.events).toEqual(expected);
    }
  });

  it('sends in the add event the same subscription a fresh /register shows', async () => {
    const mia = queueFor(IDS.mia);
    await realm.as('mia').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] });
    const { body } = await realm.as('mia').post('/register', { fetch_event_types: ['subscription'], include_subscribers: true });
    expect(mia.events[0].subscriptions).toEqual([body.subscriptions.find((s: { name: string }) => s.name === 'design')]);
  });

  it('keeps null notification settings for clients that declared notification_settings_null', async () => {
    const modern = queueFor(IDS.mia, { capabilities: { ...NO_CAPABILITIES, notification_settings_null: true } });
    await realm.as('mia').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] });
    expect(modern.events[0].subscriptions).toEqual([
      expect.objectContaining({ desktop_notifications: null, audible_notifications: null, push_notifications: null, email_notifications: null, wildcard_mentions_notify: null }),
    ]);
  });

  it('lists channels the caller is already in as already_subscribed and changes nothing for them', async () => {
    const mark = queueFor(IDS.mark);
    const { body } = await realm.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }, { name: 'Design ' }] });
    expect(body).toEqual({ result: 'success', msg: '', subscribed: {}, already_subscribed: { [IDS.mark]: ['general', 'design'] } });
    expect(mark.events).toEqual([]);
  });

  it('gives a returning subscriber their old settings back', async () => {
    await realm.as('mark').post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: IDS.design, property: 'pin_to_top', value: true }],
    });
    await realm.as('mark').delete('/users/me/subscriptions', { subscriptions: ['design'] });
    await realm.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'design', color: '#000000' }] });
    expect(await subscriptionOf('mark', IDS.design)).toMatchObject({ pin_to_top: true, color: '#fae589' });
  });

  it('uses the color asked for on a new subscription', async () => {
    await realm.as('mia').post('/users/me/subscriptions', { subscriptions: [{ name: 'design', color: '#abc' }] });
    expect(await subscriptionOf('mia', IDS.design)).toMatchObject({ color: '#abc' });
  });

  it('refuses a private channel the caller cannot access, and lists it as unauthorized when errors are not fatal', async () => {
    await expectRefusal(
      () => realm.as('mia').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }, { name: 'secret' }] }),
      error('Unable to access channel (secret).'),
    );
    const { body } = await realm.as('mia').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'design' }, { name: 'secret' }],
      authorization_errors_fatal: false,
    });
    expect(body).toEqual({ result: 'success', msg: '', subscribed: { [IDS.mia]: ['design'] }, already_subscribed: {}, unauthorized: ['secret'] });
    expect(await subscriptionOf('mia', IDS.secret)).toBeUndefined();
  });

  it('refuses administrators too for a private channel they are not in, unless they may add its subscribers', async () => {
    await expectRefusal(
      () => realm.as('adam').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }] }),
      error('Unable to access channel (secret).'),
    );
    await realm.as('olivia').patch(`/streams/${IDS.secret}`, { can_add_subscribers_group: { new: { direct_members: [IDS.mia], direct_subgroups: [] } } });
    const { body } = await realm.as('mia').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }] });
    expect(body.subscribed).toEqual({ [IDS.mia]: ['secret'] });
  });

  it('refuses archived channels', async () => {
    await realm.as('olivia').delete(`/streams/${IDS.design}`);
    await expectRefusal(
      () => realm.as('mia').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] }),
      error('Unable to access channel (design).'),
    );
  });

  it('refuses every request from a guest', async () => {
    await expectRefusal(
      () => realm.as('gail').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] }),
      error('Not allowed for guest users'),
    );
  });

  it('subscribes others named by id or API email, and the notification bot tells them who did it', async () => {
    const { body } = await realm.as('mark').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'design' }, { name: 'strict' }],
      principals: ['mia@zulip.test', `user${IDS.mona}@zulip.test`],
    });
    expect(body.subscribed).toEqual({ [IDS.mona]: ['design', 'strict'], [IDS.mia]: ['design', 'strict'] });
    const content = `@_**Mark Member|${IDS.mark}** subscribed you to the following channels:\n\n* #**design**\n* #**strict**`;
    const note = (id: number, to: number) => ({ id, sender_id: 1, type: 'private', client: 'Internal', recipients: [1, to], content });
    expect(await newMessagesOf('mia')).toEqual([note(5, IDS.mia)]);
    expect(await newMessagesOf('mona')).toEqual([note(6, IDS.mona)]);
    expect(await newMessagesOf('mark')).toEqual([]);
  });

  it('sends one line for one channel, and nothing to bots or to a caller subscribing themselves', async () => {
    await realm.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [IDS.mia, IDS.bot, IDS.mark] });
    expect(await newMessagesOf('mia')).toEqual([
      { id: 5, sender_id: 1, type: 'private', client: 'Internal', recipients: [1, IDS.mia], content: `@_**Mark Member|${IDS.mark}** subscribed you to #**design**.` },
    ]);
    expect(await newMessagesOf('bot')).toEqual([]);
    expect(await newMessagesOf('mark')).toEqual([]);
  });

  it('gives a new subscriber of a private channel with protected history only the messages sent from now on', async () => {
    const mia = queueFor(IDS.mia);
    const adam = queueFor(IDS.adam);
    const mona = queueFor(IDS.mona);
    await realm.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'secret' }], principals: [IDS.mia] });
    expect(await subscriptionOf('mia', IDS.secret)).toMatchObject({ stream_id: IDS.secret, invite_only: true, history_public_to_subscribers: false });
    // The API never returns the first message a subscriber may see.
    expect((await realm.engine.db.subscriptions.get([IDS.mia, IDS.secret]))!.first_message_id_seen).toBe(5);
    // She could not see the channel before: it is created for her, then subscribed.
    expect(mia.events.map((e) => [e.type, e.op])).toEqual([
      ['stream', 'create'],
      ['subscription', 'add'],
      ['message', undefined],
    ]);
    expect(mia.events[0]).toMatchObject({ streams: [{ stream_id: IDS.secret, name: 'secret', invite_only: true }] });
    // Administrators see private subscribers; moderators do not.
    expect(adam.events).toEqual([{ id: 0, type: 'subscription', op: 'peer_add', stream_ids: [IDS.secret], user_ids: [IDS.mia] }]);
    expect(mona.events).toEqual([]);
    const page = await realm.as('mia').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: 'secret' }] });
    expect(page.body.messages).toEqual([]);
  });

  it('refuses unknown and deactivated principals with 400 BAD_REQUEST', async () => {
    await expectRefusal(
      () => realm.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [IDS.mia, 999] }),
      error('No such user'),
    );
    await expectRefusal(
      () => realm.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: ['nobody@zulip.test'] }),
      error('No such user'),
    );
    await realm.as('olivia').delete(`/users/${IDS.mia}`);
    await expectRefusal(
      () => realm.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [IDS.mia] }),
      error('User is deactivated'),
    );
  });

  it('finds a principal by real email only when the caller may see it', async () => {
    // No endpoint changes the realm's email_address_visibility (a scenario setting): it is seeded in storage.
    await realm.engine.db.realm.update(1, { email_address_visibility: 3 });
    await expectRefusal(
      () => realm.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: ['mia@zulip.test'] }),
      error('No such user'),
    );
    const admin = await realm.as('adam').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: ['mia@zulip.test'] });
    expect(admin.body.subscribed).toEqual({ [IDS.mia]: ['design'] });
  });

  it('creates a missing channel, subscribing the principals', async () => {
    const { body } = await realm.as('mia').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'brand-new', description: 'Fresh' }],
      principals: [IDS.mia, IDS.mona],
    });
    expect(body.subscribed).toEqual({ [IDS.mona]: ['brand-new'], [IDS.mia]: ['brand-new'] });
    const id = await channelId('brand-new');
    expect((await realm.as('mia').get(`/streams/${id}`)).body.stream).toMatchObject({
      name: 'brand-new',
      description: 'Fresh',
      creator_id: IDS.mia,
      invite_only: false,
    });
    expect(await subscriptionOf('mona', id)).toMatchObject({ stream_id: id, name: 'brand-new' });
  });

  it('creates a channel for principals without the caller, leaving the caller unsubscribed', async () => {
    const mark = queueFor(IDS.mark);
    const { status, body } = await realm.as('mark').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'for-mia' }],
      principals: [IDS.mia],
    });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', subscribed: { [IDS.mia]: ['for-mia'] }, already_subscribed: {} });
    const id = await channelId('for-mia');
    expect((await realm.as('mark').get(`/streams/${id}`)).body.stream).toMatchObject({ creator_id: IDS.mark });
    expect(await standing('mark', id)).toBe('never_subscribed');
    expect(await standing('mia', id)).toBe('subscriptions');
    expect((await realm.as('mark').get(`/streams/${id}/members`)).body.subscribers).toEqual([IDS.mia]);
    expect(mark.events.filter((e) => e.type === 'subscription' && e.op === 'add')).toEqual([]);
  });

  it('uses the color asked for on the subscriptions to a channel it creates', async () => {
    await realm.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'colorful', color: '#123456' }] });
    const id = await channelId('colorful');
    expect(await subscriptionOf('mark', id)).toMatchObject({ stream_id: id, name: 'colorful', color: '#123456' });
  });

  it('creates missing channels with the channel settings asked for', async () => {
    const { body } = await realm.as('mark').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'hideout' }],
      invite_only: true,
      history_public_to_subscribers: true,
    });
    expect(body.subscribed).toEqual({ [IDS.mark]: ['hideout'] });
    expect((await realm.as('mark').get(`/streams/${await channelId('hideout')}`)).body.stream).toMatchObject({
      invite_only: true,
      history_public_to_subscribers: true,
    });
  });

  it('refuses to create a channel the caller may not create, changing nothing', async () => {
    await expectRefusal(
      () => realm.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }, { name: 'brand-new' }], is_default_stream: true }),
      error('Insufficient permission'),
    );
  });

  it('checks channel names, colors and the shape of each entry', async () => {
    const post = (subscriptions: unknown) => realm.as('mia').post('/users/me/subscriptions', { subscriptions });
    await expectRefusal(() => post([{ name: '  ' }]), error("Channel name can't be empty."));
    await expectRefusal(() => post([{ name: 'x'.repeat(61) }]), error('Channel name too long (limit: 60 characters).'));
    await expectRefusal(() => post([{ name: 'bad\u0007name' }]), error('Invalid character in channel name, at position 4.'));
    await expectRefusal(() => post([{ name: 'design', color: 'red' }]), error('add.color is not a valid hex color code'));
    await expectRefusal(() => post([{ name: 'design', colour: '#fff' }]), error('Argument "colour" at subscriptions[0] is unexpected'));
    await expectRefusal(() => post([{ description: 'no name' }]), error('subscriptions[0]["name"] is missing'));
    await expectRefusal(() => post('design'), error('subscriptions is not valid JSON'));
    await expectRefusal(() => post([{ name: 'new', description: 'd'.repeat(1025) }]), error('subscriptions[0]["description"] is too long (limit: 1024 characters)'));
  });

  it('requires subscriptions', async () => {
    await expectRefusal(() => realm.as('mia').post('/users/me/subscriptions', {}), {
      ...error("Missing 'subscriptions' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'subscriptions',
    });
  });

  it('refuses principals that are neither user ids nor emails', async () => {
    await expectRefusal(
      () => realm.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [true] }),
      error('Invalid principals'),
    );
  });
});

describe('PATCH /users/me/subscriptions', () => {
  it('adds and removes in one request', async () => {
    const { status, body } = await realm.as('mark').patch('/users/me/subscriptions', {
      add: [{ name: 'general' }, { name: 'brand-new', color: '#123456' }],
      delete: ['design', 'secret'],
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      subscribed: { [IDS.mark]: ['brand-new'] },
      already_subscribed: { [IDS.mark]: ['general'] },
      removed: ['design', 'secret'],
      not_removed: [],
    });
    expect(await standing('mark', IDS.design)).toBe('unsubscribed');
    expect(await standing('mark', IDS.secret)).toBe('unsubscribed');
    expect(await subscriptionOf('mark', await channelId('brand-new'))).toMatchObject({ color: '#123456' });
  });

  it('refuses a request with nothing to do', async () => {
    await expectRefusal(() => realm.as('mark').patch('/users/me/subscriptions', { add: [], delete: [] }), error('Nothing to do. Specify at least one of "add" or "delete".'));
  });

  it('undoes the additions when a deletion is refused', async () => {
    await expectRefusal(
      () => realm.as('mia').patch('/users/me/subscriptions', { add: [{ name: 'design' }], delete: ['nowhere'] }),
      { ...error("Channel 'nowhere' does not exist", 'STREAM_DOES_NOT_EXIST'), stream: 'nowhere' },
    );
  });

  it('refuses guests, as upstream, even when they only leave channels', async () => {
    await expectRefusal(() => realm.as('gail').patch('/users/me/subscriptions', { delete: ['general'] }), error('Not allowed for guest users'));
  });
});
