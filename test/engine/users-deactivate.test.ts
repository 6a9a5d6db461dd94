import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const SUCCESS = { result: 'success', msg: '' };
const deactivate = (caller: TestUser, target: number | string, params: Record<string, unknown> = {}) =>
  realm.as(caller).delete(`/users/${target}`, params);
const reactivate = (caller: TestUser, target: number) => realm.as(caller).post(`/users/${target}/reactivate`);
/** Whether GET /users/{id} calls the user active, as Adam (never deactivated here) sees it. */
const isActive = async (id: number): Promise<boolean> => (await realm.as('adam').get(`/users/${id}`)).body.user.is_active;
/** The mail the sandbox recorded, as an administrator reads it. */
const mail = async () => (await realm.as('adam').get('/sandbox/outgoing_mail')).body.outgoing_mail as Record<string, any>[];
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>) => expectRefused(realm, send, expected);
const activeFlag = (userId: number, active: boolean) => ({ type: 'realm_user', op: 'update', person: { user_id: userId, is_active: active } });
const peer = (op: string, channelId: number, userIds: number[]) => ({ type: 'subscription', op, stream_ids: [channelId], user_ids: userIds });

describe('DELETE /users/{user_id}', () => {
  test('deactivates the user and the bots they own, and tells who sees their channels that they left them', async () => {
    const olivia = openQueue(realm.engine, IDS.olivia);
    const gail = openQueue(realm.engine, IDS.gail);
    const { status, body } = await deactivate('adam', IDS.mark);
    expect(status).toBe(200);
    expect(body).toEqual(SUCCESS);
    expect([await isActive(IDS.mark), await isActive(IDS.bot)]).toEqual([false, false]);
    expect(olivia.events.map(({ id: _id, ...event }) => event)).toEqual([
      activeFlag(IDS.mark, false),
      activeFlag(IDS.bot, false),
      peer('peer_remove', IDS.general, [IDS.mark, IDS.bot]),
      peer('peer_remove', IDS.design, [IDS.mark]),
      peer('peer_remove', IDS.secret, [IDS.mark]),
      peer('peer_remove', IDS.announce, [IDS.mark]),
      peer('peer_remove', IDS.strict, [IDS.mark]),
    ]);
    // A guest sees only the channels they are subscribed to.
    expect(gail.events.map(({ id: _id, ...event }) => event)).toEqual([
      activeFlag(IDS.mark, false),
      activeFlag(IDS.bot, false),
      peer('peer_remove', IDS.general, [IDS.mark, IDS.bot]),
    ]);
    expect(await mail()).toEqual([]);
  });

  test('keeps the subscriptions, and the deactivated user can no longer use the API', async () => {
    await deactivate('adam', IDS.mark);
    // The API shows no deactivated user's subscriptions: neither to them nor in channels' members.
    expect(await realm.engine.db.subscriptions.where('[user_id+active]').equals([IDS.mark, 1]).count()).toBe(5);
    const { status, body } = await realm.as('mark').get('/users/me');
    expect(status).toBe(401);
    expect(body).toEqual(error('Account is deactivated', 'USER_DEACTIVATED'));
    const { body: state } = await realm.as('mia').post('/register', { fetch_event_types: ['realm_user'] });
    expect(state.realm_non_active_users.map((u: { user_id: number }) => u.user_id)).toEqual([IDS.mark, IDS.bot]);
  });

  test('records a notification email when a comment is given, never sending it', async () => {
    await deactivate('adam', IDS.mia, { deactivation_notification_comment: '  Thanks for everything!  ' });
    expect(await mail()).toEqual([
      {
        id: 1,
        to: 'mia@zulip.test',
        subject: 'Notification of account deactivation on Test Realm',
        body: [
          'Hello Mia Member,',
          '',
          'Your account on Test Realm (zulip.test) has been deactivated, and you will no longer be able to log in.',
          '',
          'The administrator provided the following comment:',
          '',
          'Thanks for everything!',
        ].join('\n'),
        sent_at: Date.UTC(2026, 0, 1, 12) / 1000,
        kind: 'deactivation',
      },
    ]);
  });

  test('records the email without a comment when the comment is empty', async () => {
    await deactivate('adam', IDS.mia, { deactivation_notification_comment: '' });
    expect(await mail()).toEqual([
      {
        id: 1,
        to: 'mia@zulip.test',
        subject: 'Notification of account deactivation on Test Realm',
        body: 'Hello Mia Member,\n\nYour account on Test Realm (zulip.test) has been deactivated, and you will no longer be able to log in.',
        sent_at: Date.UTC(2026, 0, 1, 12) / 1000,
        kind: 'deactivation',
      },
    ]);
  });

  test('refuses a comment over 2000 characters', async () => {
    await refused(
      () => deactivate('adam', IDS.mia, { deactivation_notification_comment: 'x'.repeat(2001) }),
      error('deactivation_notification_comment is too long (limit: 2000 characters)'),
    );
  });

  test('refuses to deactivate the only owner', async () => {
    await refused(() => deactivate('olivia', IDS.olivia), error('Cannot deactivate the only organization owner'));
  });

  test('lets only owners deactivate owners', async () => {
    await realm.as('olivia').patch(`/users/${IDS.adam}`, { role: 100 });
    await realm.as('olivia').patch(`/users/${IDS.mona}`, { role: 200 });
    await refused(() => deactivate('mona', IDS.olivia), error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'));
    expect((await deactivate('adam', IDS.olivia)).body).toEqual(SUCCESS);
    expect(await isActive(IDS.olivia)).toBe(false);
  });

  test.each(['mona', 'mark', 'gail'] as const)('refuses %s, who is not an administrator, changing nothing', async (caller) => {
    await refused(() => deactivate(caller, IDS.mia, { deactivation_notification_comment: 'bye' }), error('Insufficient permission'));
  });

  test('refuses bots, unknown users and users already deactivated', async () => {
    await refused(() => deactivate('adam', IDS.bot), error('No such user'));
    await refused(() => deactivate('adam', 999), error('No such user'));
    await deactivate('adam', IDS.mia);
    await refused(() => deactivate('adam', IDS.mia), error('User is deactivated'));
  });
});

describe('POST /users/{user_id}/reactivate', () => {
  test('reactivates the user alone and tells who sees their channels that they are back', async () => {
    await deactivate('adam', IDS.mark);
    const mia = openQueue(realm.engine, IDS.mia);
    expect((await reactivate('adam', IDS.mark)).body).toEqual(SUCCESS);
    expect([await isActive(IDS.mark), await isActive(IDS.bot)]).toEqual([true, false]);
    expect(mia.events.map(({ id: _id, ...event }) => event)).toEqual([
      activeFlag(IDS.mark, true),
      peer('peer_add', IDS.general, [IDS.mark]),
      peer('peer_add', IDS.design, [IDS.mark]),
      peer('peer_add', IDS.announce, [IDS.mark]),
      peer('peer_add', IDS.strict, [IDS.mark]),
    ]);
    expect((await realm.as('mark').get('/users/me')).body).toMatchObject({ result: 'success', user_id: IDS.mark, is_active: true });
  });

  test('reactivates bots too', async () => {
    await deactivate('adam', IDS.mark);
    expect((await reactivate('adam', IDS.bot)).body).toEqual(SUCCESS);
    expect(await isActive(IDS.bot)).toBe(true);
  });

  test('refuses non-administrators, active users and unknown users', async () => {
    await deactivate('adam', IDS.mia);
    await refused(() => reactivate('mona', IDS.mia), error('Insufficient permission'));
    await refused(() => reactivate('adam', IDS.mark), error('User is already active.'));
    await refused(() => reactivate('adam', 999), error('No such user'));
  });
});

describe('DELETE /users/me', () => {
  test('deactivates the caller', async () => {
    const adam = openQueue(realm.engine, IDS.adam);
    expect((await realm.as('mia').delete('/users/me')).body).toEqual(SUCCESS);
    expect(await isActive(IDS.mia)).toBe(false);
    expect(adam.events[0]).toEqual({ id: 0, ...activeFlag(IDS.mia, false) });
  });

  test('refuses the only owner with CANNOT_DEACTIVATE_LAST_USER', async () => {
    await refused(() => realm.as('olivia').delete('/users/me'), {
      ...error('Cannot deactivate the only organization owner', 'CANNOT_DEACTIVATE_LAST_USER'),
      is_last_owner: true,
      entity: 'organization owner',
    });
  });
});
