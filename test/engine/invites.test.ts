import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GROUP_ADMINISTRATORS, GROUP_MEMBERS } from '../../src/engine/permissions/system-groups.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const invitationFailed = (msg: string, errors: unknown[], sent: boolean) => ({
  ...error(msg, 'INVITATION_FAILED'),
  errors,
  sent_invitations: sent,
  license_limit_reached: false,
  daily_limit_reached: false,
});
const invite = (user: TestUser, params: Record<string, unknown>) =>
  realm.as(user).post('/invites', { stream_ids: [], ...params });
/** The pending invitations, as an owner lists them. */
const listed = async () => (await realm.as('olivia').get('/invites')).body.invites as Record<string, any>[];
/** The mail the sandbox recorded, as an administrator reads it. */
const mailSent = async () => (await realm.as('adam').get('/sandbox/outgoing_mail')).body.outgoing_mail as Record<string, any>[];
/**
 * The stored invitations, for what GET /invites never returns (the channels, groups, default-channel
 * choice and welcome text an acceptance will use) and for the invitations it no longer lists.
 */
const storedInvites = () => realm.engine.db.invites.orderBy('id').toArray();
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>, status = 400) => expectRefused(realm, send, expected, status);
const SUCCESS = { result: 'success', msg: '' };
const DAY_MINUTES = 24 * 60;

describe('POST /invites', () => {
  it('invites each comma or newline separated address, records its mail and tells admins and the referrer', async () => {
    const queues = { olivia: openQueue(realm.engine, IDS.olivia), adam: openQueue(realm.engine, IDS.adam), mark: openQueue(realm.engine, IDS.mark), mia: openQueue(realm.engine, IDS.mia) };
    const now = realm.engine.nowSeconds();
    const { status, body } = await invite('mark', {
      invitee_emails: 'ann@example.com, Bo Brown <bo@example.com>\ncy@example.com,,ANN@example.com',
      stream_ids: [IDS.general, IDS.design],
    });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    const emails = ['ann@example.com', 'bo@example.com', 'cy@example.com'];
    expect(await listed()).toEqual(
      emails.map((email, index) => ({
        id: index + 1,
        email,
        invited_by_user_id: IDS.mark,
        invited: now,
        expiry_date: now + 14400 * 60,
        invited_as: 400,
        notify_referrer_on_join: true,
        is_multiuse: false,
      })),
    );
    expect((await storedInvites()).map(({ stream_ids, group_ids, include_realm_default_subscriptions, welcome_message_custom_text }) => ({
      stream_ids,
      group_ids,
      include_realm_default_subscriptions,
      welcome_message_custom_text,
    }))).toEqual(emails.map(() => ({ stream_ids: [IDS.general, IDS.design], group_ids: [], include_realm_default_subscriptions: false, welcome_message_custom_text: null })));
    const mail = await mailSent();
    expect(mail.map((m) => [m.id, m.to, m.kind, m.subject, m.sent_at])).toEqual([
      [1, 'ann@example.com', 'invitation', 'Mark Member invited you to join Test Realm', now],
      [2, 'bo@example.com', 'invitation', 'Mark Member invited you to join Test Realm', now],
      [3, 'cy@example.com', 'invitation', 'Mark Member invited you to join Test Realm', now],
    ]);
    expect(mail[1].body).toContain('/api/v1/sandbox/invites/2/accept');
    for (const user of ['olivia', 'adam', 'mark'] as const) expect(queues[user].events).toEqual([{ id: 0, type: 'invites_changed' }]);
    expect(queues.mia.events).toEqual([]);
  });

  it('takes an expiry in minutes, or null for never', async () => {
    const now = realm.engine.nowSeconds();
    await invite('mark', { invitee_emails: 'a@example.com', invite_expires_in_minutes: 60 });
    await invite('mark', { invitee_emails: 'b@example.com', invite_expires_in_minutes: null });
    expect((await listed()).map((i) => i.expiry_date)).toEqual([now + 3600, null]);
    await refused(() => invite('mark', { invitee_emails: 'c@example.com', invite_expires_in_minutes: 0 }), error('invite_expires_in_minutes is too small'));
  });

  it("keeps an administrator's welcome text, and always null for others", async () => {
    await invite('adam', { invitee_emails: 'a@example.com', welcome_message_custom_text: 'Hello **you**' });
    await invite('adam', { invitee_emails: 'b@example.com', welcome_message_custom_text: '' });
    await invite('mark', { invitee_emails: 'c@example.com', welcome_message_custom_text: 'Hi' });
    expect((await storedInvites()).map((i) => i.welcome_message_custom_text)).toEqual(['Hello **you**', '', null]);
    await refused(
      () => invite('adam', { invitee_emails: 'd@example.com', welcome_message_custom_text: 'x'.repeat(8001) }),
      error('welcome_message_custom_text is too long (limit: 8000 characters)'),
    );
  });

  it('stores the groups, the default-channel choice and the referrer notification choice', async () => {
    const group = (await realm.as('mark').post('/user_groups/create', { name: 'g', description: '', members: [] })).body.group_id;
    await invite('mark', {
      invitee_emails: 'a@example.com',
      group_ids: [group],
      include_realm_default_subscriptions: true,
      notify_referrer_on_join: false,
    });
    expect((await listed())[0].notify_referrer_on_join).toBe(false);
    expect((await storedInvites())[0]).toMatchObject({ group_ids: [group], include_realm_default_subscriptions: true });
  });

  describe('roles', () => {
    it.each([
      ['olivia', 100],
      ['adam', 200],
      ['mona', 300],
      ['mark', 400],
      ['mark', 600],
    ] as const)('lets %s invite as %i', async (user, role) => {
      expect((await invite(user, { invitee_emails: 'a@example.com', invite_as: role })).body).toEqual(SUCCESS);
      expect((await listed()).map((i) => [i.email, i.invited_as])).toEqual([['a@example.com', role]]);
    });

    it.each([
      ['adam', 100, 'Must be an organization owner'],
      ['mona', 200, 'Must be an organization administrator'],
      ['mark', 300, 'Must be an organization administrator'],
      ['mark', 100, 'Must be an organization owner'],
    ] as const)('refuses %s inviting as %i', async (user, role, msg) => {
      await refused(() => invite(user, { invitee_emails: 'a@example.com', invite_as: role }), error(msg));
    });

    it('refuses a role that does not exist', async () => {
      await refused(() => invite('olivia', { invitee_emails: 'a@example.com', invite_as: 500 }), error('Invalid invite_as'));
    });
  });

  describe('permission', () => {
    it('refuses guests and bots', async () => {
      await refused(() => invite('gail', { invitee_emails: 'a@example.com' }), error('Not allowed for guest users'));
      await refused(() => invite('bot', { invitee_emails: 'a@example.com' }), error('This endpoint does not accept bot requests.'));
    });

    it("follows the realm's can_invite_users_group", async () => {
      await realm.as('olivia').patch('/realm', { can_invite_users_group: { new: GROUP_ADMINISTRATORS } });
      await refused(() => invite('mark', { invitee_emails: 'a@example.com' }), error('Insufficient permission'));
      expect((await invite('adam', { invitee_emails: 'a@example.com' })).body).toEqual(SUCCESS);
      expect((await listed()).map((i) => i.invited_by_user_id)).toEqual([IDS.adam]);
    });
  });

  describe('addresses', () => {
    it.each(['', ' , \n '])('needs at least one address (%j)', async (emails) => {
      await refused(() => invite('mark', { invitee_emails: emails }), error('You must specify at least one email address.'));
    });

    it('requires invitee_emails and stream_ids', async () => {
      await refused(() => realm.as('mark').post('/invites', { stream_ids: [] }), {
        ...error("Missing 'invitee_emails' argument", 'REQUEST_VARIABLE_MISSING'),
        var_name: 'invitee_emails',
      });
      await refused(() => realm.as('mark').post('/invites', { invitee_emails: 'a@example.com' }), {
        ...error("Missing 'stream_ids' argument", 'REQUEST_VARIABLE_MISSING'),
        var_name: 'stream_ids',
      });
    });

    it('sends nothing when an address is invalid, listing every failure', async () => {
      await refused(
        () => invite('mark', { invitee_emails: 'ok@example.com, not-an-email, mia@zulip.test' }),
        invitationFailed(
          "Some emails did not validate, so we didn't send any invitations.",
          [
            ['not-an-email', 'Invalid address.', false],
            ['mia@zulip.test', 'Already has an account.', false],
          ],
          false,
        ),
      );
    });

    it('invites the others and reports addresses that already have an account', async () => {
      await realm.as('olivia').delete(`/users/${IDS.mia}`);
      const queue = openQueue(realm.engine, IDS.mark);
      const { status, body } = await invite('mark', {
        invitee_emails: 'new@example.com, Mark@zulip.test, mia@zulip.test, notification-bot@zulip.test',
      });
      expect(status).toBe(400);
      expect(body).toEqual(
        invitationFailed(
          "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
          [
            ['Mark@zulip.test', 'Already has an account.', false],
            ['mia@zulip.test', 'Account has been deactivated.', true],
            ['notification-bot@zulip.test', 'Reserved for system bots.', false],
          ],
          true,
        ),
      );
      expect((await listed()).map((i) => i.email)).toEqual(['new@example.com']);
      expect((await mailSent()).map((m) => m.to)).toEqual(['new@example.com']);
      expect(queue.events).toEqual([{ id: 0, type: 'invites_changed' }]);
    });

    it('sends nothing when every address already has an account', async () => {
      await refused(
        () => invite('mark', { invitee_emails: 'mia@zulip.test' }),
        invitationFailed("We weren't able to invite anyone.", [['mia@zulip.test', 'Already has an account.', false]], false),
      );
    });
  });

  describe('channels and groups', () => {
    it.each([
      ['mark', 999],
      ['mia', IDS.secret],
    ] as const)('refuses %s a channel %i they cannot access, sending nothing', async (user, channelId) => {
      await refused(
        () => invite(user, { invitee_emails: 'a@example.com', stream_ids: [IDS.general, channelId] }),
        error(`Invalid channel ID ${channelId}. No invites were sent.`),
      );
    });

    it('accepts a private channel the referrer is subscribed to', async () => {
      expect((await invite('mark', { invitee_emails: 'a@example.com', stream_ids: [IDS.secret] })).body).toEqual(SUCCESS);
      expect((await listed()).map((i) => i.email)).toEqual(['a@example.com']);
      expect((await storedInvites())[0].stream_ids).toEqual([IDS.secret]);
    });

    it('refuses an archived channel', async () => {
      await realm.as('olivia').delete(`/streams/${IDS.design}`);
      await refused(
        () => invite('mark', { invitee_emails: 'a@example.com', stream_ids: [IDS.design] }),
        error(`Invalid channel ID ${IDS.design}. No invites were sent.`),
      );
    });

    it('refuses groups the referrer may not add members to', async () => {
      const marks = (await realm.as('mark').post('/user_groups/create', { name: 'g', description: '', members: [] })).body.group_id;
      await refused(() => invite('mia', { invitee_emails: 'a@example.com', group_ids: [marks] }), error('Insufficient permission'));
      await refused(() => invite('olivia', { invitee_emails: 'a@example.com', group_ids: [GROUP_MEMBERS] }), error('Insufficient permission'));
      await refused(() => invite('mark', { invitee_emails: 'a@example.com', group_ids: [999] }), error('Invalid user group'));
      expect((await invite('mark', { invitee_emails: 'a@example.com', group_ids: [marks] })).body).toEqual(SUCCESS);
      expect((await storedInvites())[0].group_ids).toEqual([marks]);
    });
  });
});

describe('GET /invites', () => {
  beforeEach(async () => {
    await invite('mark', { invitee_emails: 'a@example.com', invite_as: 600, notify_referrer_on_join: false });
    await invite('adam', { invitee_emails: 'b@example.com', invite_expires_in_minutes: null });
  });

  it("lists the caller's own invitations to a member", async () => {
    const now = realm.engine.nowSeconds();
    const { status, body } = await realm.as('mark').get('/invites');
    expect(status).toBe(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      invites: [
        {
          id: 1,
          email: 'a@example.com',
          invited_by_user_id: IDS.mark,
          invited: now,
          expiry_date: now + 14400 * 60,
          invited_as: 600,
          notify_referrer_on_join: false,
          is_multiuse: false,
        },
      ],
    });
    expect((await realm.as('mia').get('/invites')).body.invites).toEqual([]);
  });

  it('lists every invitation to an administrator', async () => {
    const { body } = await realm.as('olivia').get('/invites');
    expect(body.invites.map((i: { email: string; expiry_date: number | null }) => [i.email, i.expiry_date === null])).toEqual([
      ['a@example.com', false],
      ['b@example.com', true],
    ]);
  });

  it('leaves out expired and revoked invitations', async () => {
    await realm.as('adam').delete('/invites/2');
    realm.clock.advance(10 * DAY_MINUTES * 60_000);
    expect((await realm.as('olivia').get('/invites')).body.invites).toEqual([]);
  });

  it('is refused to guests', async () => {
    await refused(() => realm.as('gail').get('/invites'), error('Not allowed for guest users'));
  });
});

describe('DELETE /invites/{id}', () => {
  beforeEach(async () => {
    await invite('mark', { invitee_emails: 'a@example.com' });
    await invite('olivia', { invitee_emails: 'owner@example.com', invite_as: 100 });
  });

  it('revokes the referrer’s own invitation and tells admins and the referrer', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    const adam = openQueue(realm.engine, IDS.adam);
    const mia = openQueue(realm.engine, IDS.mia);
    const { status, body } = await realm.as('mark').delete('/invites/1');
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect((await listed()).map((i) => i.id)).toEqual([2]);
    expect(mark.events).toEqual([{ id: 0, type: 'invites_changed' }]);
    expect(adam.events).toEqual([{ id: 0, type: 'invites_changed' }]);
    expect(mia.events).toEqual([]);
    await refused(() => realm.as('mark').delete('/invites/1'), error('Invitation has already been revoked'));
  });

  it("lets administrators revoke others' invitations, owners' ones only to owners", async () => {
    expect((await realm.as('adam').delete('/invites/1')).body).toEqual(SUCCESS);
    await refused(() => realm.as('adam').delete('/invites/2'), error('Must be an organization owner'));
    expect((await listed()).map((i) => i.id)).toEqual([2]);
  });

  it.each([
    ['mia', '/invites/1', 'Must be an organization administrator'],
    ['mark', '/invites/999', 'No such invitation'],
    ['gail', '/invites/1', 'Not allowed for guest users'],
  ] as const)('refuses %s DELETE %s', async (user, path, msg) => {
    await refused(() => realm.as(user).delete(path), error(msg));
  });

  it('refuses an invalid invitation id', async () => {
    await refused(() => realm.as('mark').delete('/invites/abc'), error('Invalid invite_id'));
  });
});

describe('POST /invites/{id}/resend', () => {
  beforeEach(async () => {
    await invite('mark', { invitee_emails: 'a@example.com' });
  });

  it('records the invitation mail again, without events', async () => {
    const queue = openQueue(realm.engine, IDS.mark);
    realm.clock.advance(60_000);
    const { status, body } = await realm.as('mark').post('/invites/1/resend');
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    const mail = await mailSent();
    expect(mail.map((m) => [m.to, m.kind])).toEqual([
      ['a@example.com', 'invitation'],
      ['a@example.com', 'invitation'],
    ]);
    expect(mail[1].sent_at).toBe(realm.engine.nowSeconds());
    expect(mail[1].body).toBe(mail[0].body);
    expect(queue.events).toEqual([]);
  });

  it('lets an administrator resend, not another member', async () => {
    expect((await realm.as('adam').post('/invites/1/resend')).body).toEqual(SUCCESS);
    expect((await mailSent()).map((m) => m.to)).toEqual(['a@example.com', 'a@example.com']);
    await refused(() => realm.as('mia').post('/invites/1/resend'), error('Must be an organization administrator'));
  });

  it('refuses revoked and unknown invitations', async () => {
    await realm.as('mark').delete('/invites/1');
    await refused(() => realm.as('mark').post('/invites/1/resend'), error('No such invitation'));
    await refused(() => realm.as('mark').post('/invites/7/resend'), error('No such invitation'));
  });
});
