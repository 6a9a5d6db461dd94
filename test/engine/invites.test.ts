import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GROUP_ADMINISTRATORS, GROUP_MEMBERS } from '../../src/engine/permissions/system-groups.ts';
import { createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';

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
const inviteRows = () => realm.engine.db.invites.orderBy('id').toArray();
const mailRows = () => realm.engine.db.outgoing_mail.orderBy('id').toArray();
const DAY_MINUTES = 24 * 60;

/** State an invitation request may change, to check that a refusal changed none of it. */
async function snapshot() {
  return { invites: await inviteRows(), mail: await mailRows() };
}

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
    expect(await inviteRows()).toEqual(
      ['ann@example.com', 'bo@example.com', 'cy@example.com'].map((email, index) => ({
        id: index + 1,
        email,
        email_key: email,
        invited_by: IDS.mark,
        invite_as: 400,
        stream_ids: [IDS.general, IDS.design],
        group_ids: [],
        include_realm_default_subscriptions: false,
        notify_referrer_on_join: true,
        welcome_message_custom_text: null,
        invited_at: now,
        expires_at: now + 14400 * 60,
        status: 'pending',
        accepted_user_id: null,
      })),
    );
    const mail = await mailRows();
    expect(mail.map((m) => [m.to, m.kind, m.subject, m.sent_at])).toEqual([
      ['ann@example.com', 'invitation', 'Mark Member invited you to join Test Realm', now],
      ['bo@example.com', 'invitation', 'Mark Member invited you to join Test Realm', now],
      ['cy@example.com', 'invitation', 'Mark Member invited you to join Test Realm', now],
    ]);
    expect(mail[1].body).toContain('/api/v1/sandbox/invites/2/accept');
    for (const user of ['olivia', 'adam', 'mark'] as const) expect(queues[user].events).toEqual([{ id: 0, type: 'invites_changed' }]);
    expect(queues.mia.events).toEqual([]);
  });

  it('takes an expiry in minutes, or null for never', async () => {
    const now = realm.engine.nowSeconds();
    await invite('mark', { invitee_emails: 'a@example.com', invite_expires_in_minutes: 60 });
    await invite('mark', { invitee_emails: 'b@example.com', invite_expires_in_minutes: null });
    expect((await inviteRows()).map((i) => i.expires_at)).toEqual([now + 3600, null]);
    expect((await invite('mark', { invitee_emails: 'c@example.com', invite_expires_in_minutes: 0 })).body).toEqual(
      error('invite_expires_in_minutes is too small'),
    );
  });

  it("keeps an administrator's welcome text, and always null for others", async () => {
    await invite('adam', { invitee_emails: 'a@example.com', welcome_message_custom_text: 'Hello **you**' });
    await invite('adam', { invitee_emails: 'b@example.com', welcome_message_custom_text: '' });
    await invite('mark', { invitee_emails: 'c@example.com', welcome_message_custom_text: 'Hi' });
    expect((await inviteRows()).map((i) => i.welcome_message_custom_text)).toEqual(['Hello **you**', '', null]);
    const long = await invite('adam', { invitee_emails: 'd@example.com', welcome_message_custom_text: 'x'.repeat(8001) });
    expect(long.body).toEqual(error('welcome_message_custom_text is too long (limit: 8000 characters)'));
  });

  it('stores the groups, the default-channel choice and the referrer notification choice', async () => {
    const group = (await realm.as('mark').post('/user_groups/create', { name: 'g', description: '', members: [] })).body.group_id;
    await invite('mark', {
      invitee_emails: 'a@example.com',
      group_ids: [group],
      include_realm_default_subscriptions: true,
      notify_referrer_on_join: false,
    });
    expect((await inviteRows())[0]).toMatchObject({ group_ids: [group], include_realm_default_subscriptions: true, notify_referrer_on_join: false });
  });

  describe('roles', () => {
    it.each([
      ['olivia', 100],
      ['adam', 200],
      ['mona', 300],
      ['mark', 400],
      ['mark', 600],
    ] as const)('lets %s invite as %i', async (user, role) => {
      expect((await invite(user, { invitee_emails: 'a@example.com', invite_as: role })).status).toBe(200);
      expect((await inviteRows())[0].invite_as).toBe(role);
    });

    it.each([
      ['adam', 100, 'Must be an organization owner'],
      ['mona', 200, 'Must be an organization administrator'],
      ['mark', 300, 'Must be an organization administrator'],
      ['mark', 100, 'Must be an organization owner'],
    ] as const)('refuses %s inviting as %i', async (user, role, msg) => {
      const before = await snapshot();
      const { status, body } = await invite(user, { invitee_emails: 'a@example.com', invite_as: role });
      expect(status).toBe(400);
      expect(body).toEqual(error(msg));
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a role that does not exist', async () => {
      expect((await invite('olivia', { invitee_emails: 'a@example.com', invite_as: 500 })).body).toEqual(error('Invalid invite_as'));
    });
  });

  describe('permission', () => {
    it('refuses guests and bots', async () => {
      const queue = openQueue(realm.engine, IDS.olivia);
      expect((await invite('gail', { invitee_emails: 'a@example.com' })).body).toEqual(error('Not allowed for guest users'));
      expect((await invite('bot', { invitee_emails: 'a@example.com' })).body).toEqual(error('This endpoint does not accept bot requests.'));
      expect(await snapshot()).toEqual({ invites: [], mail: [] });
      expect(queue.events).toEqual([]);
    });

    it("follows the realm's can_invite_users_group", async () => {
      await realm.engine.db.realm.update(1, { can_invite_users_group: GROUP_ADMINISTRATORS });
      expect((await invite('mark', { invitee_emails: 'a@example.com' })).body).toEqual(error('Insufficient permission'));
      expect((await invite('adam', { invitee_emails: 'a@example.com' })).status).toBe(200);
      expect((await inviteRows()).map((i) => i.invited_by)).toEqual([IDS.adam]);
    });
  });

  describe('addresses', () => {
    it.each(['', ' , \n '])('needs at least one address (%j)', async (emails) => {
      expect((await invite('mark', { invitee_emails: emails })).body).toEqual(error('You must specify at least one email address.'));
    });

    it('requires invitee_emails and stream_ids', async () => {
      expect((await realm.as('mark').post('/invites', { stream_ids: [] })).body).toEqual({
        ...error("Missing 'invitee_emails' argument", 'REQUEST_VARIABLE_MISSING'),
        var_name: 'invitee_emails',
      });
      expect((await realm.as('mark').post('/invites', { invitee_emails: 'a@example.com' })).body).toEqual({
        ...error("Missing 'stream_ids' argument", 'REQUEST_VARIABLE_MISSING'),
        var_name: 'stream_ids',
      });
    });

    it('sends nothing when an address is invalid, listing every failure', async () => {
      const queue = openQueue(realm.engine, IDS.mark);
      const { status, body } = await invite('mark', { invitee_emails: 'ok@example.com, not-an-email, mia@zulip.test' });
      expect(status).toBe(400);
      expect(body).toEqual(
        invitationFailed(
          "Some emails did not validate, so we didn't send any invitations.",
          [
            ['not-an-email', 'Invalid address.', false],
            ['mia@zulip.test', 'Already has an account.', false],
          ],
          false,
        ),
      );
      expect(await snapshot()).toEqual({ invites: [], mail: [] });
      expect(queue.events).toEqual([]);
    });

    it('invites the others and reports addresses that already have an account', async () => {
      await realm.engine.db.users.update(IDS.mia, { is_active: false });
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
      expect((await inviteRows()).map((i) => i.email)).toEqual(['new@example.com']);
      expect((await mailRows()).map((m) => m.to)).toEqual(['new@example.com']);
      expect(queue.events).toEqual([{ id: 0, type: 'invites_changed' }]);
    });

    it('sends nothing when every address already has an account', async () => {
      const { body } = await invite('mark', { invitee_emails: 'mia@zulip.test' });
      expect(body).toEqual(invitationFailed("We weren't able to invite anyone.", [['mia@zulip.test', 'Already has an account.', false]], false));
      expect(await snapshot()).toEqual({ invites: [], mail: [] });
    });
  });

  describe('channels and groups', () => {
    it.each([
      ['mark', 999],
      ['mia', IDS.secret],
    ] as const)('refuses %s a channel %i they cannot access, sending nothing', async (user, channelId) => {
      const before = await snapshot();
      const queue = openQueue(realm.engine, IDS.olivia);
      const { status, body } = await invite(user, { invitee_emails: 'a@example.com', stream_ids: [IDS.general, channelId] });
      expect(status).toBe(400);
      expect(body).toEqual(error(`Invalid channel ID ${channelId}. No invites were sent.`));
      expect(await snapshot()).toEqual(before);
      expect(queue.events).toEqual([]);
    });

    it('accepts a private channel the referrer is subscribed to', async () => {
      expect((await invite('mark', { invitee_emails: 'a@example.com', stream_ids: [IDS.secret] })).status).toBe(200);
    });

    it('refuses an archived channel', async () => {
      await realm.engine.db.channels.update(IDS.design, { is_archived: true });
      expect((await invite('mark', { invitee_emails: 'a@example.com', stream_ids: [IDS.design] })).body).toEqual(
        error(`Invalid channel ID ${IDS.design}. No invites were sent.`),
      );
    });

    it('refuses groups the referrer may not add members to', async () => {
      const marks = (await realm.as('mark').post('/user_groups/create', { name: 'g', description: '', members: [] })).body.group_id;
      const before = await snapshot();
      expect((await invite('mia', { invitee_emails: 'a@example.com', group_ids: [marks] })).body).toEqual(error('Insufficient permission'));
      expect((await invite('olivia', { invitee_emails: 'a@example.com', group_ids: [GROUP_MEMBERS] })).body).toEqual(
        error('Insufficient permission'),
      );
      expect((await invite('mark', { invitee_emails: 'a@example.com', group_ids: [999] })).body).toEqual(error('Invalid user group'));
      expect(await snapshot()).toEqual(before);
      expect((await invite('mark', { invitee_emails: 'a@example.com', group_ids: [marks] })).status).toBe(200);
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
    expect((await realm.as('gail').get('/invites')).body).toEqual(error('Not allowed for guest users'));
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
    expect((await realm.engine.db.invites.get(1))!.status).toBe('revoked');
    expect(mark.events).toEqual([{ id: 0, type: 'invites_changed' }]);
    expect(adam.events).toEqual([{ id: 0, type: 'invites_changed' }]);
    expect(mia.events).toEqual([]);
    expect((await realm.as('mark').delete('/invites/1')).body).toEqual(error('Invitation has already been revoked'));
  });

  it("lets administrators revoke others' invitations, owners' ones only to owners", async () => {
    expect((await realm.as('adam').delete('/invites/1')).status).toBe(200);
    expect((await realm.as('adam').delete('/invites/2')).body).toEqual(error('Must be an organization owner'));
    expect((await realm.engine.db.invites.get(2))!.status).toBe('pending');
  });

  it.each([
    ['mia', '/invites/1', 'Must be an organization administrator'],
    ['mark', '/invites/999', 'No such invitation'],
    ['gail', '/invites/1', 'Not allowed for guest users'],
  ] as const)('refuses %s DELETE %s', async (user, path, msg) => {
    const before = await snapshot();
    const queue = openQueue(realm.engine, IDS.olivia);
    const { status, body } = await realm.as(user).delete(path);
    expect(status).toBe(400);
    expect(body).toEqual(error(msg));
    expect(await snapshot()).toEqual(before);
    expect(queue.events).toEqual([]);
  });

  it('refuses an invalid invitation id', async () => {
    expect((await realm.as('mark').delete('/invites/abc')).body).toEqual(error('Invalid invite_id'));
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
    const mail = await mailRows();
    expect(mail.map((m) => [m.to, m.kind])).toEqual([
      ['a@example.com', 'invitation'],
      ['a@example.com', 'invitation'],
    ]);
    expect(mail[1].sent_at).toBe(realm.engine.nowSeconds());
    expect(mail[1].body).toBe(mail[0].body);
    expect(queue.events).toEqual([]);
  });

  it('lets an administrator resend, not another member', async () => {
    expect((await realm.as('adam').post('/invites/1/resend')).status).toBe(200);
    const before = await snapshot();
    expect((await realm.as('mia').post('/invites/1/resend')).body).toEqual(error('Must be an organization administrator'));
    expect(await snapshot()).toEqual(before);
  });

  it('refuses revoked and unknown invitations', async () => {
    await realm.as('mark').delete('/invites/1');
    const before = await snapshot();
    expect((await realm.as('mark').post('/invites/1/resend')).body).toEqual(error('No such invitation'));
    expect((await realm.as('mark').post('/invites/7/resend')).body).toEqual(error('No such invitation'));
    expect(await snapshot()).toEqual(before);
  });
});
