import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { TestClient, createTestRealm, IDS, openQueue, TEST_SCENARIO, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const SUCCESS = { result: 'success', msg: '' };
const update = (caller: TestUser, target: number | string, params: Record<string, unknown>) => realm.as(caller).patch(`/users/${target}`, params);
/** The user as the owner sees them through GET /users/{id}. */
const user = async (id: number) => (await realm.as('olivia').get(`/users/${id}`)).body.user;
/** A refused update: its error, no row changed anywhere, no event for anyone. */
const expectUpdateRefused = (caller: TestUser, target: number | string, params: Record<string, unknown>, expected: Record<string, unknown>) =>
  expectRefused(realm, () => update(caller, target, params), expected);
const update1 = (person: Record<string, unknown>) => ({ type: 'realm_user', op: 'update', person });

describe('PATCH /users/{user_id}: full name', () => {
  test('renames the user, trimmed, and tells every active user', async () => {
    const gail = openQueue(realm.engine, IDS.gail);
    const { status, body } = await update('adam', IDS.mia, { full_name: '  Mia Maker ' });
    expect(status).toBe(200);
    expect(body).toEqual(SUCCESS);
    expect((await user(IDS.mia)).full_name).toBe('Mia Maker');
    expect(gail.events).toEqual([{ id: 0, ...update1({ user_id: IDS.mia, full_name: 'Mia Maker' }) }]);
  });

  test("renames a bot, telling its owner and the administrators through realm_bot as well", async () => {
    const [mark, adam, mia] = [IDS.mark, IDS.adam, IDS.mia].map((id) => openQueue(realm.engine, id));
    expect((await update('adam', IDS.bot, { full_name: 'Deploy Bot' })).body).toEqual(SUCCESS);
    const renamed = update1({ user_id: IDS.bot, full_name: 'Deploy Bot' });
    const botUpdate = { type: 'realm_bot', op: 'update', bot: { user_id: IDS.bot, full_name: 'Deploy Bot' } };
    expect(mark.events).toEqual([{ id: 0, ...renamed }, { id: 1, ...botUpdate }]);
    expect(adam.events).toEqual([{ id: 0, ...renamed }, { id: 1, ...botUpdate }]);
    expect(mia.events).toEqual([{ id: 0, ...renamed }]);
    const listed = (await realm.as('mark').post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots;
    expect(listed.map((bot: { full_name: string }) => bot.full_name)).toEqual(['Deploy Bot']);
  });

  test('ignores a blank or unchanged name', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await update('adam', IDS.mia, { full_name: '   ' })).body).toEqual(SUCCESS);
    expect((await update('adam', IDS.mia, { full_name: 'Mia Member' })).body).toEqual(SUCCESS);
    expect((await user(IDS.mia)).full_name).toBe('Mia Member');
    expect(mark.events).toEqual([]);
  });

  test.each([
    ['x'.repeat(101), 'Name too long!'],
    ['Mia *bold*', 'Invalid characters in name!'],
    ['Mia @here', 'Invalid characters in name!'],
    ['Mia\u0007', 'Invalid characters in name!'],
    ['Mia|15', 'Invalid format!'],
  ])('refuses the name %j', async (name, msg) => {
    await expectUpdateRefused('adam', IDS.mia, { full_name: name }, error(msg));
  });

  test("renames deactivated users and bots", async () => {
    await realm.as('olivia').delete(`/users/${IDS.mia}`);
    expect((await update('adam', IDS.mia, { full_name: 'Former Mia' })).body).toEqual(SUCCESS);
    expect((await update('adam', IDS.bot, { full_name: 'Helper Bot' })).body).toEqual(SUCCESS);
    expect(await user(IDS.mia)).toMatchObject({ full_name: 'Former Mia', is_active: false });
    expect((await user(IDS.bot)).full_name).toBe('Helper Bot');
  });
});

describe('PATCH /users/{user_id}: who may, and whom', () => {
  test.each(['mona', 'mark', 'gail', 'bot'] as const)('refuses %s, who is not an administrator', async (caller) => {
    await expectUpdateRefused(caller, IDS.mia, { full_name: 'Renamed', role: 300 }, error('Insufficient permission'));
  });

  test('refuses unknown users and the system bots', async () => {
    await expectUpdateRefused('adam', 999, { full_name: 'X' }, error('No such user'));
    await expectUpdateRefused('adam', 1, { full_name: 'X' }, error('No such user'));
    await expectUpdateRefused('adam', 'nobody@zulip.test', { full_name: 'X' }, error('No such user'));
  });

  test('finds the user by real email or by the dummy address (PATCH /users/{email})', async () => {
    expect((await update('adam', 'mia@zulip.test', { full_name: 'By Email' })).body).toEqual(SUCCESS);
    expect((await update('adam', `user${IDS.mia}@zulip.test`, { full_name: 'By Dummy' })).body).toEqual(SUCCESS);
    expect((await user(IDS.mia)).full_name).toBe('By Dummy');
  });

  test('does not find a user by a real email the caller may not see', async () => {
    // No endpoint changes the realm's email_address_visibility (a scenario setting): it is seeded in storage.
    await realm.engine.db.realm.update(1, { email_address_visibility: 4 });
    await expectUpdateRefused('adam', 'mia@zulip.test', { full_name: 'X' }, error('No such user'));
    expect((await update('adam', `user${IDS.mia}@zulip.test`, { full_name: 'Via Dummy' })).body).toEqual(SUCCESS);
    expect((await user(IDS.mia)).full_name).toBe('Via Dummy');
  });

  test('reports unsupported parameters', async () => {
    expect((await update('adam', IDS.mia, { is_admin: true })).body).toEqual({ ...SUCCESS, ignored_parameters_unsupported: ['is_admin'] });
    expect(await user(IDS.mia)).toMatchObject({ role: 400, is_admin: false });
  });
});

describe('PATCH /users/{user_id}: role', () => {
  test('changes the role, announces it, and moves the user between the role groups', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await update('adam', IDS.mia, { role: 300 })).body).toEqual(SUCCESS);
    expect((await user(IDS.mia)).role).toBe(300);
    expect(mark.events).toEqual([
      { id: 0, ...update1({ user_id: IDS.mia, role: 300 }) },
      { id: 1, type: 'user_group', op: 'remove_members', group_id: 5, user_ids: [IDS.mia] },
      { id: 2, type: 'user_group', op: 'add_members', group_id: 4, user_ids: [IDS.mia] },
    ]);
    expect((await realm.as('mia').get('/users/me')).body).toMatchObject({ role: 300, is_admin: false });
  });

  test('sends nothing when the role does not change', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await update('adam', IDS.mia, { role: 400 })).body).toEqual(SUCCESS);
    expect(mark.events).toEqual([]);
    expect((await user(IDS.mia)).role).toBe(400);
  });

  test('lets only owners grant or remove the owner role', async () => {
    const refused = error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
    await expectUpdateRefused('adam', IDS.mia, { role: 100 }, refused);
    await expectUpdateRefused('adam', IDS.olivia, { role: 400 }, refused);
    expect((await update('olivia', IDS.adam, { role: 100 })).body).toEqual(SUCCESS);
    expect((await update('adam', IDS.olivia, { role: 200 })).body).toEqual(SUCCESS);
    expect([(await user(IDS.adam)).role, (await user(IDS.olivia)).role]).toEqual([100, 200]);
  });

  test('keeps the owner role on the only owner', async () => {
    await expectUpdateRefused('olivia', IDS.olivia, { role: 200 }, error('The owner permission cannot be removed from the only organization owner.'));
  });

  test('does not make a guest an administrator in one step, but allows other roles', async () => {
    await expectUpdateRefused('adam', IDS.gail, { role: 200 }, error('Guests cannot be organization administrators'));
    await expectUpdateRefused('olivia', IDS.gail, { role: 100 }, error('Guests cannot be organization administrators'));
    expect((await update('adam', IDS.gail, { role: 400 })).body).toEqual(SUCCESS);
    expect((await update('adam', IDS.gail, { role: 200 })).body).toEqual(SUCCESS);
    expect((await user(IDS.gail)).role).toBe(200);
  });

  test('refuses a role that does not exist', async () => {
    await expectUpdateRefused('adam', IDS.mia, { role: 500 }, error('Invalid role'));
    await expectUpdateRefused('adam', IDS.mia, { role: 'admin' }, error('role is not valid JSON'));
  });
});

describe('PATCH /users/{user_id}: profile_data', () => {
  beforeEach(async () => {
    await realm.as('adam').post('/realm/profile_fields', { name: 'Badge', field_type: 1, editable_by_user: false });
    await realm.as('adam').post('/realm/profile_fields', { name: 'Birthday', field_type: 4 });
  });

  test("sets another user's values, even those users may not edit", async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await update('adam', IDS.mia, { profile_data: [{ id: 1, value: 'gold' }, { id: 2, value: '1990-05-01' }] })).body).toEqual(SUCCESS);
    expect(mark.events.map((e) => e.person)).toEqual([
      { user_id: IDS.mia, custom_profile_field: { id: 1, value: 'gold', rendered_value: '<p>gold</p>' } },
      { user_id: IDS.mia, custom_profile_field: { id: 2, value: '1990-05-01' } },
    ]);
    expect((await realm.as('mark').get(`/users/${IDS.mia}`, { include_custom_profile_fields: true })).body.user.profile_data).toEqual({
      1: { value: 'gold', rendered_value: '<p>gold</p>' },
      2: { value: '1990-05-01' },
    });
  });

  test('refuses the whole request when one value is invalid, renaming nobody', async () => {
    await expectUpdateRefused(
      'adam',
      IDS.mia,
      { full_name: 'Renamed', role: 300, profile_data: [{ id: 1, value: 'ok' }, { id: 2, value: 'soon' }] },
      error('Birthday is not a date'),
    );
  });

  test('refuses entries that are not {id, value} objects', async () => {
    await expectUpdateRefused('adam', IDS.mia, { profile_data: [{ id: 1, value: 'x', extra: 1 }] }, error('Argument "extra" at profile_data[0] is unexpected'));
    await expectUpdateRefused('adam', IDS.mia, { profile_data: { id: 1 } }, error('profile_data is not a list'));
  });
});

describe('PATCH /users/{user_id}: new_email', () => {
  /** Olivia, the owner, also holds upstream's special permission to change emails. */
  const withEmailChanges = {
    ...TEST_SCENARIO,
    users: TEST_SCENARIO.users.map((u) => (u.email.startsWith('olivia@') ? { ...u, can_change_user_emails: true } : u)),
  };
  beforeEach(async () => {
    realm.engine.close();
    realm = await createTestRealm(withEmailChanges);
  });

  test('lets an owner change the address; those who may see it learn both the real and the API email', async () => {
    // No endpoint changes the realm's email_address_visibility (a scenario setting): it is seeded in storage.
    await realm.engine.db.realm.update(1, { email_address_visibility: 3 });
    const adam = openQueue(realm.engine, IDS.adam);
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await update('olivia', IDS.mia, { new_email: 'mia@new.test' })).body).toEqual(SUCCESS);
    expect(await user(IDS.mia)).toMatchObject({ email: 'mia@new.test', delivery_email: 'mia@new.test' });
    expect(adam.events).toEqual([
      { id: 0, ...update1({ user_id: IDS.mia, delivery_email: 'mia@new.test' }) },
      { id: 1, ...update1({ user_id: IDS.mia, new_email: 'mia@new.test' }) },
    ]);
    expect(mark.events).toEqual([]);
    const mia = new TestClient(realm.engine, 'mia@new.test', 'MiaKey00000000000000000000000005');
    expect((await mia.get('/users/me')).body.delivery_email).toBe('mia@new.test');
  });

  test('refuses administrators who are not owners, invalid addresses and addresses in use', async () => {
    await expectUpdateRefused('adam', IDS.mia, { new_email: 'mia@new.test' }, error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'));
    await expectUpdateRefused('olivia', IDS.mia, { new_email: 'not an address' }, error('Invalid address.'));
    await expectUpdateRefused('olivia', IDS.mia, { new_email: 'MARK@zulip.test' }, error('Already has an account.'));
    await realm.as('olivia').delete(`/users/${IDS.mark}`);
    await expectUpdateRefused('olivia', IDS.mia, { new_email: 'mark@zulip.test' }, error('Account has been deactivated.'));
  });

  test('refuses an owner without the permission to change emails (spec 4.11)', async () => {
    realm.engine.close();
    realm = await createTestRealm();
    await expectUpdateRefused('olivia', IDS.mia, { new_email: 'mia@new.test' }, error('User not authorized to change user emails'));
  });

  test('accepts the current address as no change', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await update('adam', IDS.mia, { new_email: 'mia@zulip.test' })).body).toEqual(SUCCESS);
    expect(mark.events).toEqual([]);
    expect((await user(IDS.mia)).delivery_email).toBe('mia@zulip.test');
  });
});

describe('PATCH /users/{user_id}: what a role change reveals or hides', () => {
  type Queue = { events: Record<string, unknown>[] };
  const withoutId = ({ id: _id, ...event }: Record<string, unknown>) => event;
  const streamEvents = (queue: Queue) => queue.events.filter((e) => e.type === 'stream').map(withoutId);
  const emailEvents = (queue: Queue) =>
    queue.events
      .filter((e) => e.type === 'realm_user' && ('delivery_email' in (e.person as object) || 'new_email' in (e.person as object)))
      .map(withoutId);
  const streamsAsSeenBy = async (caller: TestUser, ids: number[]) => {
    const { body } = await realm.as(caller).post('/register', { fetch_event_types: ['stream'] });
    return (body.streams as { stream_id: number }[]).filter((s) => ids.includes(s.stream_id));
  };
  // No endpoint changes the realm's email_address_visibility (a scenario setting): it is seeded in storage.
  const setVisibility = (value: 2 | 3 | 5) => realm.engine.db.realm.update(1, { email_address_visibility: value });
  const hidden = (id: number) => [
    update1({ user_id: id, delivery_email: null }),
    update1({ user_id: id, new_email: `user${id}@zulip.test` }),
  ];
  const shown = ([name, id]: readonly [string, number]) => [
    update1({ user_id: id, delivery_email: `${name}@zulip.test` }),
    update1({ user_id: id, new_email: `${name}@zulip.test` }),
  ];
  const unsubscribedPublic = [IDS.design, IDS.announce, IDS.strict];

  test('a member made a guest loses the public channels they are not subscribed to', async () => {
    const mia = openQueue(realm.engine, IDS.mia);
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await update('adam', IDS.mia, { role: 600 })).body).toEqual(SUCCESS);
    expect(streamEvents(mia)).toEqual([
      {
        type: 'stream',
        op: 'delete',
        streams: unsubscribedPublic.map((id) => expect.objectContaining({ stream_id: id, invite_only: false, subscriber_count: expect.any(Number) })),
        stream_ids: unsubscribedPublic,
      },
    ]);
    expect(streamEvents(mark)).toEqual([]);
    expect((await streamsAsSeenBy('mia', [1, 2, 3, 4, 5])).map((s) => s.stream_id)).toEqual([IDS.general]);
  });

  test('a guest made a member gains the public channels, as full stream objects', async () => {
    const gail = openQueue(realm.engine, IDS.gail);
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await update('adam', IDS.gail, { role: 400 })).body).toEqual(SUCCESS);
    const streams = await streamsAsSeenBy('gail', unsubscribedPublic);
    expect(streams.map((s) => s.stream_id)).toEqual(unsubscribedPublic);
    expect(streamEvents(gail)).toEqual([{ type: 'stream', op: 'create', streams }]);
    expect(streamEvents(mark)).toEqual([]);
  });

  test('a member made an administrator gains the private channels', async () => {
    const mia = openQueue(realm.engine, IDS.mia);
    expect((await update('adam', IDS.mia, { role: 200 })).body).toEqual(SUCCESS);
    expect(streamEvents(mia)).toEqual([{ type: 'stream', op: 'create', streams: await streamsAsSeenBy('mia', [IDS.secret]) }]);
  });

  test('a role change that keeps the same channels visible sends no stream event', async () => {
    const mia = openQueue(realm.engine, IDS.mia);
    expect((await update('adam', IDS.mia, { role: 300 })).body).toEqual(SUCCESS);
    expect(streamEvents(mia)).toEqual([]);
  });

  test('with emails visible to members, a member made a guest is re-sent the dummy addresses', async () => {
    await setVisibility(2);
    const mia = openQueue(realm.engine, IDS.mia);
    const mark = openQueue(realm.engine, IDS.mark);
    expect((await update('adam', IDS.mia, { role: 600 })).body).toEqual(SUCCESS);
    expect(emailEvents(mia)).toEqual([IDS.olivia, IDS.adam, IDS.mona, IDS.mark, IDS.gail].flatMap(hidden));
    expect(emailEvents(mark)).toEqual([]);
    const { body } = await realm.as('mia').get(`/users/${IDS.mark}`);
    expect(body.user).toMatchObject({ email: `user${IDS.mark}@zulip.test`, delivery_email: null });
  });

  test('with emails visible to members, a guest made a member is re-sent the real addresses', async () => {
    await setVisibility(2);
    const gail = openQueue(realm.engine, IDS.gail);
    expect((await update('adam', IDS.gail, { role: 400 })).body).toEqual(SUCCESS);
    const others = [['olivia', IDS.olivia], ['adam', IDS.adam], ['mona', IDS.mona], ['mark', IDS.mark], ['mia', IDS.mia]] as const;
    expect(emailEvents(gail)).toEqual(others.flatMap(shown));
  });

  test('with emails visible to administrators, a member made an administrator is re-sent the real addresses', async () => {
    await setVisibility(3);
    const mia = openQueue(realm.engine, IDS.mia);
    expect((await update('adam', IDS.mia, { role: 200 })).body).toEqual(SUCCESS);
    const others = [['olivia', IDS.olivia], ['adam', IDS.adam], ['mona', IDS.mona], ['mark', IDS.mark], ['gail', IDS.gail]] as const;
    expect(emailEvents(mia)).toEqual(others.flatMap(shown));
  });

  test('with emails visible to moderators, a moderator made a member is re-sent the dummy addresses', async () => {
    await setVisibility(5);
    const mona = openQueue(realm.engine, IDS.mona);
    expect((await update('adam', IDS.mona, { role: 400 })).body).toEqual(SUCCESS);
    expect(emailEvents(mona)).toEqual([IDS.olivia, IDS.adam, IDS.mark, IDS.mia, IDS.gail].flatMap(hidden));
  });

  test('a role change on the same side of the visibility line re-sends no email', async () => {
    await setVisibility(2);
    const mia = openQueue(realm.engine, IDS.mia);
    expect((await update('adam', IDS.mia, { role: 300 })).body).toEqual(SUCCESS);
    expect(emailEvents(mia)).toEqual([]);
  });

  test('a refused role change changes nothing and tells the user nothing', async () => {
    await setVisibility(2);
    await expectUpdateRefused('adam', IDS.gail, { role: 200 }, error('Guests cannot be organization administrators'));
  });
});
