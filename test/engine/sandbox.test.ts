import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TestClient, createTestRealm, IDS, openQueue, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectedMember } from '../support/test-scenario.ts';
import { expectRefused as expectRefusedBy } from '../support/expect-refused.ts';
import { acceptAddressFromMail } from '../support/invitation-mail.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
/** The id the next account gets: the test realm's users are 8 to 14. */
const NEW_USER = 15;
const NOTIFICATION_BOT = 1;
const WELCOME_BOT = 2;

async function inviteAs(user: TestUser, params: Record<string, unknown> = {}): Promise<number> {
  const { body } = await realm.as(user).post('/invites', { invitee_emails: 'nina@example.com', stream_ids: [], ...params });
  expect(body).toEqual({ result: 'success', msg: '' });
  return (await realm.as(user).get('/invites')).body.invites.at(-1).id;
}

/** The accept address an invitation's recorded mail carries (with its confirmation key). */
const acceptWithoutKey = (inviteId: number | string, params: Record<string, unknown> = {}) =>
  realm.anonymous().post(`/sandbox/invites/${inviteId}/accept`, { full_name: 'Nina New', password: 'nina-pass', ...params });

/** Accepts as the invitee would: at the address their mail gives. */
const accept = async (inviteId: number, params: Record<string, unknown> = {}) =>
  realm.anonymous().post(await acceptAddressFromMail(realm, inviteId), { full_name: 'Nina New', password: 'nina-pass', ...params });

/** The new user's client, with the API key the acceptance returned. */
const nina = (apiKey: string) => new TestClient(realm.engine, 'nina@example.com', apiKey);

/** The messages `client` received after the scenario's four, with their Markdown source. */
async function newMessages(client: TestClient) {
  const { body } = await client.get('/messages', { anchor: 5, num_before: 0, num_after: 100, apply_markdown: false });
  return body.messages.map((m: Record<string, any>) => ({
    sender_id: m.sender_id,
    type: m.type,
    recipients: m.display_recipient.map((r: { id: number }) => r.id),
    content: m.content,
  }));
}

describe('POST /sandbox/invites/{id}/accept', () => {
  it('creates the invited account, which can then log in', async () => {
    const id = await inviteAs('mark', { invite_as: 600 });
    const { status, body } = await accept(id);
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', user_id: NEW_USER, email: 'nina@example.com', api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    expect((await realm.as('adam').get(`/users/${NEW_USER}`)).body.user).toMatchObject({
      user_id: NEW_USER,
      delivery_email: 'nina@example.com',
      email: 'nina@example.com',
      full_name: 'Nina New',
      role: 600,
      is_guest: true,
      is_bot: false,
      is_active: true,
      date_joined: '2026-01-01T12:00+00:00',
    });
    expect((await realm.as('mark').get('/invites')).body.invites).toEqual([]);
    // GET /invites lists pending invitations only: who accepted one is in storage alone.
    expect(await realm.engine.db.invites.get(id)).toMatchObject({ status: 'accepted', accepted_user_id: NEW_USER });

    const me = await new TestClient(realm.engine, 'nina@example.com', body.api_key).get('/users/me');
    expect(me.body).toMatchObject({ user_id: NEW_USER, full_name: 'Nina New', role: 600 });
    const login = await realm.anonymous().post('/fetch_api_key', { username: 'nina@example.com', password: 'nina-pass' });
    expect(login.body).toMatchObject({ result: 'success', api_key: body.api_key, user_id: NEW_USER });
  });

  it('tells every active user about the new user, each with the email they may see', async () => {
    // No endpoint changes the realm's email_address_visibility (a scenario setting): it is seeded in storage.
    await realm.engine.db.realm.update(1, { email_address_visibility: 3 });
    const id = await inviteAs('mark');
    const adam = openQueue(realm.engine, IDS.adam);
    const mia = openQueue(realm.engine, IDS.mia, { eventTypes: new Set(['realm_user']) });
    await accept(id);
    const person = {
      ...expectedMember({
        user_id: NEW_USER,
        email: 'nina@example.com',
        full_name: 'Nina New',
        date_joined: expect.any(String),
        avatar_url: expect.any(String),
      }),
    };
    expect(adam.events[0]).toEqual({ id: 0, type: 'realm_user', op: 'add', person });
    expect(mia.events).toEqual([
      { id: 0, type: 'realm_user', op: 'add', person: { ...person, delivery_email: null, email: `user${NEW_USER}@zulip.test` } },
    ]);
  });

  it("subscribes the new user to the invitation's channels and the default ones, with peer_add events", async () => {
    const id = await inviteAs('mark', { stream_ids: [IDS.design, IDS.secret], include_realm_default_subscriptions: true });
    const newUser = openQueue(realm.engine, NEW_USER, { eventTypes: new Set(['subscription']) });
    const mia = openQueue(realm.engine, IDS.mia, { eventTypes: new Set(['subscription']) });
    const olivia = openQueue(realm.engine, IDS.olivia, { eventTypes: new Set(['subscription']) });
    const gail = openQueue(realm.engine, IDS.gail, { eventTypes: new Set(['subscription']) });
    const { body } = await accept(id);
    expect(body).toMatchObject({ result: 'success', user_id: NEW_USER });

    const subscribed = (await nina(body.api_key).get('/users/me/subscriptions')).body.subscriptions as { stream_id: number }[];
    expect(subscribed.map((s) => s.stream_id).sort()).toEqual([IDS.general, IDS.design, IDS.secret]);
    const added = newUser.events.find((e) => e.op === 'add')!.subscriptions as { stream_id: number; subscribers: number[] }[];
    expect(added.map((s) => s.stream_id).sort()).toEqual([IDS.general, IDS.design, IDS.secret]);
    expect(added.find((s) => s.stream_id === IDS.design)!.subscribers).toEqual([IDS.olivia, IDS.mark, NEW_USER]);

    const peerAdds = (events: typeof mia.events) =>
      events.filter((e) => e.op === 'peer_add').flatMap((e) => (e.stream_ids as number[]).map((s) => [s, e.user_ids]));
    expect(peerAdds(olivia.events).sort()).toEqual([[IDS.general, [NEW_USER]], [IDS.design, [NEW_USER]], [IDS.secret, [NEW_USER]]].sort());
    // Mia sees the public channels' subscribers, not the private one's; the guest only her own channel's.
    expect(peerAdds(mia.events).sort()).toEqual([[IDS.general, [NEW_USER]], [IDS.design, [NEW_USER]]].sort());
    expect(peerAdds(gail.events)).toEqual([[IDS.general, [NEW_USER]]]);
  });

  it("adds the new user to the invitation's groups", async () => {
    const group = (await realm.as('mark').post('/user_groups/create', { name: 'g', description: '', members: [IDS.mark] })).body.group_id;
    const id = await inviteAs('mark', { group_ids: [group] });
    const queue = openQueue(realm.engine, IDS.mia, { eventTypes: new Set(['user_group']) });
    await accept(id);
    expect((await realm.as('mia').get(`/user_groups/${group}/members`, { direct_member_only: true })).body.members).toEqual([IDS.mark, NEW_USER]);
    expect(queue.events).toEqual([{ id: 0, type: 'user_group', op: 'add_members', group_id: group, user_ids: [NEW_USER] }]);
  });

  it('has the notification bot tell the referrer, and tells admins and the referrer that invitations changed', async () => {
    const id = await inviteAs('mark');
    const mark = openQueue(realm.engine, IDS.mark, { eventTypes: new Set(['message', 'invites_changed']) });
    const { body } = await accept(id);
    expect(mark.events.map((e) => e.type)).toEqual(['invites_changed', 'message']);
    expect(mark.events[1]).toMatchObject({
      message: { sender_id: NOTIFICATION_BOT, type: 'private', display_recipient: [{ id: NOTIFICATION_BOT }, { id: IDS.mark }] },
    });
    expect(await newMessages(realm.as('mark'))).toEqual([
      {
        sender_id: NOTIFICATION_BOT,
        type: 'private',
        recipients: [NOTIFICATION_BOT, IDS.mark],
        content: `@_**Nina New|${NEW_USER}** accepted your invitation to join Zulip!`,
      },
    ]);
    expect(await newMessages(nina(body.api_key))).toEqual([]);
  });

  it('does not tell a referrer who asked not to be told', async () => {
    const { body } = await accept(await inviteAs('mark', { notify_referrer_on_join: false }));
    expect(await newMessages(realm.as('mark'))).toEqual([]);
    expect(await newMessages(nina(body.api_key))).toEqual([]);
  });

  it("sends an administrator's custom welcome text from the welcome bot", async () => {
    const { body } = await accept(await inviteAs('adam', { welcome_message_custom_text: 'Welcome to **Test Realm**!', notify_referrer_on_join: false }));
    expect(await newMessages(nina(body.api_key))).toEqual([
      { sender_id: WELCOME_BOT, type: 'private', recipients: [WELCOME_BOT, NEW_USER], content: 'Welcome to **Test Realm**!' },
    ]);
    expect(await newMessages(realm.as('adam'))).toEqual([]);
  });

  it('sends no welcome message for an empty welcome text', async () => {
    const { body } = await accept(await inviteAs('adam', { welcome_message_custom_text: '', notify_referrer_on_join: false }));
    expect(await newMessages(nina(body.api_key))).toEqual([]);
    expect(await newMessages(realm.as('adam'))).toEqual([]);
  });

  describe('refusals', () => {
    const expectRefused = async (inviteId: number, params: Record<string, unknown>, msg: string) => {
      const address = await acceptAddressFromMail(realm, inviteId);
      await expectRefusedBy(realm, () => realm.anonymous().post(address, { full_name: 'Nina New', password: 'nina-pass', ...params }), error(msg));
    };

    it("refuses an acceptance without the invitation's confirmation key", async () => {
      const id = await inviteAs('adam', { invite_as: 200 });
      await expectRefusedBy(realm, () => acceptWithoutKey(id), {
        ...error("Missing 'key' argument", 'REQUEST_VARIABLE_MISSING'),
        var_name: 'key',
      });
    });

    it('refuses a wrong confirmation key as it refuses an unknown invitation', async () => {
      const id = await inviteAs('adam', { invite_as: 200 });
      const key = new URL(await acceptAddressFromMail(realm, id), 'http://zulip.test').searchParams.get('key')!;
      expect(key).toMatch(/^[a-z2-7]{24}$/);
      const wrong = (key[0] === 'a' ? 'b' : 'a') + key.slice(1);
      await expectRefusedBy(realm, () => acceptWithoutKey(id, { key: wrong }), error('No such invitation'));
      await expectRefusedBy(realm, () => acceptWithoutKey(id + 1, { key }), error('No such invitation'));
      await expectRefusedBy(realm, () => acceptWithoutKey(id, { key: '' }), error('No such invitation'));
    });

    it("gives each invitation its own key, and an invitation's resent mail the same key", async () => {
      const first = await inviteAs('mark');
      const second = await realm.as('mark').post('/invites', { invitee_emails: 'other@example.com', stream_ids: [] });
      expect(second.body).toEqual({ result: 'success', msg: '' });
      const firstAddress = await acceptAddressFromMail(realm, first);
      expect(await acceptAddressFromMail(realm, first + 1)).not.toBe(firstAddress);
      await realm.as('mark').post(`/invites/${first}/resend`);
      const mail = (await realm.as('olivia').get('/sandbox/outgoing_mail')).body.outgoing_mail as { body: string }[];
      expect(mail.filter((m) => m.body.includes(firstAddress))).toHaveLength(2);
    });

    it('refuses an expired invitation', async () => {
      const id = await inviteAs('mark', { invite_expires_in_minutes: 60 });
      realm.clock.advance(60 * 60_000);
      await expectRefused(id, {}, 'The invitation has expired.');
    });

    it('accepts a never-expiring invitation years later', async () => {
      const id = await inviteAs('mark', { invite_expires_in_minutes: null });
      realm.clock.advance(3 * 365 * 24 * 3600_000);
      expect((await accept(id)).body).toEqual({
        result: 'success',
        msg: '',
        user_id: NEW_USER,
        email: 'nina@example.com',
        api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      });
    });

    it('refuses a revoked invitation', async () => {
      const id = await inviteAs('mark');
      await realm.as('mark').delete(`/invites/${id}`);
      await expectRefused(id, {}, 'The invitation has been revoked.');
    });

    it('refuses an invitation accepted already', async () => {
      const id = await inviteAs('mark');
      await accept(id);
      await expectRefused(id, {}, 'The invitation has already been accepted.');
    });

    it('refuses an invitation revoked when its address got an account through another, as upstream', async () => {
      const first = await inviteAs('mark');
      const second = await inviteAs('adam');
      await accept(first);
      expect(await realm.engine.db.invites.get(second)).toMatchObject({ status: 'revoked' });
      await expectRefused(second, {}, 'The invitation has been revoked.');
    });

    it('refuses an unknown invitation', async () => {
      await expectRefusedBy(realm, () => acceptWithoutKey(999, { key: 'abcdefghijklmnopqrstuvwx' }), error('No such invitation'));
      await expectRefusedBy(realm, () => acceptWithoutKey('abc', { key: 'abcdefghijklmnopqrstuvwx' }), error('Invalid invite_id'));
    });

    it.each([
      [{ full_name: '   ' }, 'Name must not be empty!'],
      [{ full_name: 'x'.repeat(101) }, 'Name too long!'],
      [{ full_name: 'Nina *New*' }, 'Invalid characters in name!'],
      [{ password: 'short' }, 'The password is too weak.'],
      [{ password: 'p'.repeat(101) }, 'The password is too long.'],
    ])('refuses %j', async (params, msg) => {
      await expectRefused(await inviteAs('mark'), params, msg);
    });

    it('requires full_name and password', async () => {
      const id = await inviteAs('mark');
      const address = await acceptAddressFromMail(realm, id);
      await expectRefusedBy(realm, () => realm.anonymous().post(address, { full_name: 'Nina' }), {
        ...error("Missing 'password' argument", 'REQUEST_VARIABLE_MISSING'),
        var_name: 'password',
      });
    });
  });
});

describe('GET /sandbox/outgoing_mail', () => {
  it('shows administrators the recorded mail, oldest first', async () => {
    await inviteAs('mark');
    const { status, body } = await realm.as('adam').get('/sandbox/outgoing_mail');
    expect(status).toBe(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      outgoing_mail: [
        {
          id: 1,
          to: 'nina@example.com',
          subject: 'Mark Member invited you to join Test Realm',
          body: expect.stringMatching(/http:\/\/zulip\.test\/api\/v1\/sandbox\/invites\/1\/accept\?key=[a-z2-7]{24}\b/),
          sent_at: realm.engine.nowSeconds(),
          kind: 'invitation',
        },
      ],
    });
  });

  it("shows an owner invitation's mail, which carries its key, to owners only", async () => {
    await inviteAs('olivia', { invite_as: 100 });
    await realm.as('olivia').post('/invites', { invitee_emails: 'member@example.com', stream_ids: [] });
    const seenBy = async (user: TestUser) =>
      ((await realm.as(user).get('/sandbox/outgoing_mail')).body.outgoing_mail as { to: string }[]).map((m) => m.to);
    expect(await seenBy('olivia')).toEqual(['nina@example.com', 'member@example.com']);
    expect(await seenBy('adam')).toEqual(['member@example.com']);
  });

  it('is refused to non-administrators', async () => {
    for (const user of ['mona', 'mark', 'gail'] as const) {
      expect((await realm.as(user).get('/sandbox/outgoing_mail')).body).toEqual(
        error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
      );
    }
  });

  it('requires authentication', async () => {
    expect((await realm.anonymous().get('/sandbox/outgoing_mail')).status).toBe(401);
  });
});
