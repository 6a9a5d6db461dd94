import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GROUP_MEMBERS } from '../../src/engine/permissions/system-groups.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, TestClient, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const SUCCESS = { result: 'success', msg: '' };
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>) => expectRefused(realm, send, expected);
const DAY_SECONDS = 24 * 60 * 60;
/** The id the next account gets: the test realm's users are 8 to 14. */
const NEW_USER = 15;
const LINK = /^http:\/\/zulip\.test\/api\/v1(\/sandbox\/invites\/multiuse\/(\d+)\/accept)\?key=([a-z2-7]{24})$/;

const createLink = (user: TestUser, params: Record<string, unknown> = {}) => realm.as(user).post('/invites/multiuse', params);
/** The link's sandbox path (below /api/v1) and its key. */
function parseLink(link: string): { path: string; id: number; key: string } {
  const [, path, id, key] = LINK.exec(link)!;
  return { path, id: Number(id), key };
}
async function newLink(user: TestUser, params: Record<string, unknown> = {}) {
  const { body } = await createLink(user, params);
  expect(body).toEqual({ ...SUCCESS, invite_link: expect.stringMatching(LINK) });
  return parseLink(body.invite_link);
}
const join = (link: { path: string; key: string }, params: Record<string, unknown> = {}) =>
  realm.anonymous().post(link.path, { key: link.key, email: 'nina@example.com', full_name: 'Nina New', password: 'nina-pass', ...params });
const listed = async (user: TestUser = 'olivia') => (await realm.as(user).get('/invites')).body.invites as Record<string, unknown>[];
const allowMembers = async () => {
  expect((await realm.as('olivia').patch('/realm', { create_multiuse_invite_group: { new: GROUP_MEMBERS } })).body).toMatchObject(SUCCESS);
};

describe('POST /invites/multiuse', () => {
  it('creates a link, lists it with the email invitations and tells admins and the referrer', async () => {
    const queues = { olivia: openQueue(realm.engine, IDS.olivia), adam: openQueue(realm.engine, IDS.adam), mark: openQueue(realm.engine, IDS.mark) };
    const now = realm.engine.nowSeconds();
    await realm.as('adam').post('/invites', { invitee_emails: 'ann@example.com', stream_ids: [] });
    const { status, body } = await createLink('adam');
    expect(status).toBe(200);
    expect(body).toEqual({ ...SUCCESS, invite_link: expect.stringMatching(LINK) });
    expect(parseLink(body.invite_link).id).toBe(1);
    expect(await listed()).toEqual([
      { id: 1, email: 'ann@example.com', invited_by_user_id: IDS.adam, invited: now, expiry_date: now + 10 * DAY_SECONDS, invited_as: 400, notify_referrer_on_join: true, is_multiuse: false },
      { id: 1, invited_by_user_id: IDS.adam, invited: now, expiry_date: now + 10 * DAY_SECONDS, invited_as: 400, link_url: body.invite_link, is_multiuse: true },
    ]);
    expect(queues.olivia.events).toEqual([{ id: 0, type: 'invites_changed' }, { id: 1, type: 'invites_changed' }]);
    expect(queues.adam.events).toEqual([{ id: 0, type: 'invites_changed' }, { id: 1, type: 'invites_changed' }]);
    expect(queues.mark.events).toEqual([]);
  });

  it('gives every link its own random key', async () => {
    const first = await newLink('adam');
    const second = await newLink('adam');
    expect([first.id, second.id]).toEqual([1, 2]);
    expect(first.key).not.toBe(second.key);
  });

  it('takes an expiry in minutes, or null for never, and a role', async () => {
    const now = realm.engine.nowSeconds();
    await newLink('adam', { invite_expires_in_minutes: 60, invite_as: 600 });
    await newLink('adam', { invite_expires_in_minutes: null, invite_as: 200 });
    expect((await listed()).map((i) => [i.expiry_date, i.invited_as])).toEqual([[now + 3600, 600], [null, 200]]);
  });

  it('lets only owners change create_multiuse_invite_group, which register shows', async () => {
    await refused(() => realm.as('adam').patch('/realm', { create_multiuse_invite_group: { new: GROUP_MEMBERS } }), error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'));
    await allowMembers();
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['realm'] });
    expect(body.realm_create_multiuse_invite_group).toBe(GROUP_MEMBERS);
  });

  it("follows the realm's create_multiuse_invite_group (administrators by default)", async () => {
    await refused(() => createLink('mark'), error('Insufficient permission'));
    await allowMembers();
    const link = await newLink('mark');
    expect((await listed('mark')).map((i) => i.id)).toEqual([link.id]);
    expect((await listed('mia'))).toEqual([]);
  });

  it.each([
    ['gail', {}, 'Not allowed for guest users'],
    ['adam', { invite_as: 100 }, 'Must be an organization owner'],
    ['adam', { stream_ids: [999] }, 'Invalid channel ID 999. No invites were sent.'],
    ['adam', { stream_ids: [IDS.secret] }, `Invalid channel ID ${IDS.secret}. No invites were sent.`],
    ['adam', { group_ids: [999] }, 'Invalid user group'],
    ['adam', { invite_as: 500 }, 'Invalid invite_as'],
    ['adam', { invite_expires_in_minutes: 0 }, 'invite_expires_in_minutes is too small'],
    ['adam', { welcome_message_custom_text: 'x'.repeat(8001) }, 'welcome_message_custom_text is too long (limit: 8000 characters)'],
  ] as const)('refuses %s a link with %j', async (user, params, msg) => {
    await refused(() => createLink(user, params), error(msg));
  });

  it('refuses a member a link to a role above their own', async () => {
    await allowMembers();
    await refused(() => createLink('mark', { invite_as: 200 }), error('Must be an organization administrator'));
  });
});

describe('POST /sandbox/invites/multiuse/{id}/accept', () => {
  it('lets anyone holding the link create accounts with its role, channels and groups until it is revoked', async () => {
    const group = (await realm.as('olivia').post('/user_groups/create', { name: 'newcomers', description: '', members: [] })).body.group_id;
    const link = await newLink('olivia', { invite_as: 300, stream_ids: [IDS.design], group_ids: [group], include_realm_default_subscriptions: true });
    const { status, body } = await join(link);
    expect(status).toBe(200);
    expect(body).toEqual({ ...SUCCESS, user_id: NEW_USER, email: 'nina@example.com', api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    const nina = new TestClient(realm.engine, 'nina@example.com', body.api_key);
    expect((await nina.get('/users/me')).body).toMatchObject({ user_id: NEW_USER, full_name: 'Nina New', role: 300 });
    const channels = (await nina.get('/users/me/subscriptions')).body.subscriptions.map((s: { stream_id: number }) => s.stream_id);
    expect(channels.sort()).toEqual([IDS.general, IDS.design]);
    expect((await realm.as('olivia').get(`/user_groups/${group}/members`)).body.members).toEqual([NEW_USER]);
    const login = await realm.anonymous().post('/fetch_api_key', { username: 'nina@example.com', password: 'nina-pass' });
    expect(login.body).toMatchObject({ result: 'success', user_id: NEW_USER });

    const second = await join(link, { email: 'omar@example.com', full_name: 'Omar Other' });
    expect(second.body).toMatchObject({ result: 'success', user_id: NEW_USER + 1, email: 'omar@example.com' });
    // The link stays listed: it is not used up.
    expect((await listed()).map((i) => i.id)).toEqual([link.id]);

    expect((await realm.as('olivia').delete(`/invites/multiuse/${link.id}`)).body).toEqual(SUCCESS);
    await refused(() => join(link, { email: 'pia@example.com' }), error('The invitation has been revoked.'));
  });

  it("has the welcome bot send an administrator's welcome text to each new account; others' is not kept", async () => {
    const WELCOME_BOT = 2;
    const adams = await newLink('adam', { welcome_message_custom_text: 'Welcome **aboard**' });
    await allowMembers();
    const marks = await newLink('mark', { welcome_message_custom_text: 'Hi' });
    expect((await realm.engine.db.multiuse_invites.toArray()).map((i) => i.welcome_message_custom_text)).toEqual(['Welcome **aboard**', null]);
    /** The messages a new account received, with their Markdown source. */
    const received = async (apiKey: string, email: string) => {
      const { body } = await new TestClient(realm.engine, email, apiKey).get('/messages', { anchor: 5, num_before: 0, num_after: 100, apply_markdown: false });
      return body.messages.map((m: Record<string, unknown>) => [m.sender_id, m.content]);
    };
    for (const email of ['nina@example.com', 'omar@example.com']) {
      const joined = await join(adams, { email });
      expect(await received(joined.body.api_key, email)).toEqual([[WELCOME_BOT, 'Welcome **aboard**']]);
    }
    const plain = await join(marks, { email: 'pia@example.com' });
    expect(await received(plain.body.api_key, 'pia@example.com')).toEqual([]);
  });

  it('revokes the pending email invitations to the address that joined', async () => {
    await realm.as('adam').post('/invites', { invitee_emails: 'nina@example.com', stream_ids: [] });
    const link = await newLink('adam');
    await join(link);
    expect((await listed()).map((i) => i.is_multiuse)).toEqual([true]);
    expect((await realm.engine.db.invites.get(1))?.status).toBe('revoked');
  });

  it('refuses once the link has expired, which is no longer listed', async () => {
    const link = await newLink('adam', { invite_expires_in_minutes: 60 });
    realm.clock.advance(3600 * 1000);
    expect(await listed()).toEqual([]);
    await refused(() => join(link), error('The invitation has expired.'));
  });

  it('refuses a wrong key without telling whether the link exists', async () => {
    const link = await newLink('adam');
    await refused(() => join({ ...link, key: 'a'.repeat(24) }), error('No such invitation'));
    await refused(() => join({ path: '/sandbox/invites/multiuse/999/accept', key: link.key }), error('No such invitation'));
    await refused(() => realm.anonymous().post(link.path, { email: 'nina@example.com', full_name: 'Nina', password: 'nina-pass' }), {
      ...error("Missing 'key' argument", 'REQUEST_VARIABLE_MISSING'),
      var_name: 'key',
    });
  });

  it.each([
    [{ email: 'not-an-address' }, 'Enter a valid email address.'],
    [{ email: 'MIA@zulip.test' }, 'MIA@zulip.test already has an account'],
    [{ password: 'short' }, 'The password is too weak.'],
    [{ full_name: '' }, 'Name must not be empty!'],
  ] as const)('refuses an account with %j', async (params, msg) => {
    const link = await newLink('adam');
    await refused(() => join(link, params), error(msg));
  });
});

describe('DELETE /invites/multiuse/{id}', () => {
  it('revokes a link, which leaves the list, and tells admins and the referrer', async () => {
    await allowMembers();
    const link = await newLink('mark');
    const queues = { mark: openQueue(realm.engine, IDS.mark), adam: openQueue(realm.engine, IDS.adam), mia: openQueue(realm.engine, IDS.mia) };
    const { status, body } = await realm.as('mark').delete(`/invites/multiuse/${link.id}`);
    expect(status).toBe(200);
    expect(body).toEqual(SUCCESS);
    expect(await listed()).toEqual([]);
    expect(queues.mark.events).toEqual([{ id: 0, type: 'invites_changed' }]);
    expect(queues.adam.events).toEqual([{ id: 0, type: 'invites_changed' }]);
    expect(queues.mia.events).toEqual([]);
    await refused(() => realm.as('mark').delete(`/invites/multiuse/${link.id}`), error('Invitation has already been revoked'));
  });

  it("lets administrators revoke others' links, owner links only to owners, who alone see them listed", async () => {
    await allowMembers();
    const marks = await newLink('mark');
    const adams = await newLink('adam');
    const owners = await newLink('olivia', { invite_as: 100 });
    expect((await listed('adam')).map((i) => i.id)).toEqual([marks.id, adams.id]);
    expect((await listed('olivia')).map((i) => i.id)).toEqual([marks.id, adams.id, owners.id]);
    await refused(() => realm.as('mark').delete(`/invites/multiuse/${adams.id}`), error('Must be an organization administrator'));
    await refused(() => realm.as('adam').delete(`/invites/multiuse/${owners.id}`), error('Must be an organization owner'));
    expect((await realm.as('adam').delete(`/invites/multiuse/${marks.id}`)).body).toEqual(SUCCESS);
    expect((await listed('olivia')).map((i) => i.id)).toEqual([adams.id, owners.id]);
  });

  it.each([
    ['adam', '/invites/multiuse/999', 'No such invitation'],
    ['gail', '/invites/multiuse/1', 'Not allowed for guest users'],
    ['adam', '/invites/multiuse/abc', 'Invalid invite_id'],
  ] as const)('refuses %s DELETE %s', async (user, path, msg) => {
    await newLink('adam');
    await refused(() => realm.as(user).delete(path), error(msg));
  });
});
