import { Dexie } from 'dexie';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTestRealm, IDS, type TestRealm, type TestUser } from '../support/test-realm.ts';
import { expectedMember } from '../support/test-scenario.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

// No endpoint changes the realm's email_address_visibility (a scenario setting): it is seeded in storage.
const setVisibility = (value: 1 | 2 | 3 | 4 | 5) => realm.engine.db.realm.update(1, { email_address_visibility: value });

async function miaAsSeenBy(viewer: TestUser): Promise<{ email: string; delivery_email: string | null }> {
  const { body } = await realm.as(viewer).get(`/users/${IDS.mia}`);
  return { email: body.user.email, delivery_email: body.user.delivery_email };
}

const REAL = { email: 'mia@zulip.test', delivery_email: 'mia@zulip.test' };
const DUMMY = { email: `user${IDS.mia}@zulip.test`, delivery_email: null };

describe('GET /users', () => {
  test('lists every realm user by id, without the system bots and without profile data unless asked', async () => {
    const { status, body } = await realm.as('mark').get('/users');
    expect(status).toBe(200);
    expect(body.members.map((u: { user_id: number }) => u.user_id)).toEqual([8, 9, 10, 11, 12, 13, 14]);
    expect(body.members[0]).not.toHaveProperty('profile_data');
    const withFields = await realm.as('mark').get('/users', { include_custom_profile_fields: true });
    expect(withFields.body.members[0].profile_data).toEqual({});
    expect(withFields.body.members[6]).not.toHaveProperty('profile_data');
  });

  test('shows deactivated users too', async () => {
    await realm.as('olivia').delete(`/users/${IDS.mia}`);
    const { body } = await realm.as('mark').get('/users');
    expect(body.members.find((u: { user_id: number }) => u.user_id === IDS.mia).is_active).toBe(false);
  });
});

describe('GET /users/me', () => {
  test('returns the own user object with the newest received message id, without a bot type for a human', async () => {
    const { status, body } = await realm.as('mark').get('/users/me');
    expect(status).toBe(200);
    const { bot_type: _humansHaveNone, ...member } = expectedMember({
      user_id: IDS.mark,
      email: 'mark@zulip.test',
      full_name: 'Mark Member',
      date_joined: '2026-01-01T12:00+00:00',
      avatar_url: expect.stringMatching(new RegExp(`^/api/v1/avatar/${IDS.mark}\\?v=1&k=[a-z2-7]{24}$`)),
    });
    expect(body).toEqual({ result: 'success', msg: '', ...member, max_message_id: 4 });
  });

  test('shows the real email to its owner even when nobody may see emails', async () => {
    await setVisibility(4);
    const { body } = await realm.as('mark').get('/users/me');
    expect(body).toMatchObject({ email: 'mark@zulip.test', delivery_email: 'mark@zulip.test' });
  });
});

describe('GET /users/me answered from the caches', () => {
  const newest = async () => (await realm.as('mark').get('/users/me')).body.max_message_id as number;
  const dmToMark = async () => (await realm.as('olivia').post('/messages', { type: 'private', to: JSON.stringify([IDS.mark]), content: 'hi' })).body.id as number;

  test('max_message_id follows a message received after an answer, and the deletion of it', async () => {
    expect(await newest()).toBe(4);
    expect(await newest()).toBe(4);
    const id = await dmToMark();
    expect(await newest()).toBe(id);
    expect((await realm.as('olivia').delete(`/messages/${id}`)).status).toBe(200);
    expect(await newest()).toBe(4);
  });

  /** A request of another client, not part of the transaction it is made in. */
  const outsideTransaction = <T>(request: () => Promise<T>): Promise<T> => Dexie.ignoreTransaction(request);

  /** Olivia's DM to Mark, with `duringSend` run inside its transaction once the action has written its rows. */
  function dmToMarkWith(duringSend: () => Promise<void>): Promise<Response> {
    const olivia = realm.as('olivia');
    const body = new URLSearchParams({ type: 'private', to: JSON.stringify([IDS.mark]), content: 'hi' });
    const headers = { Authorization: `Basic ${btoa(`${olivia.email}:${olivia.apiKey}`)}`, 'Content-Type': 'application/x-www-form-urlencoded' };
    return realm.engine.handle(new Request('http://zulip.test/api/v1/messages', { method: 'POST', headers, body }), { inTransaction: duringSend });
  }

  test('a read made while a send to its user is being written answers with that send once it commits', async () => {
    expect(await newest()).toBe(4);
    let answered: Promise<number> | undefined;
    const sent = await dmToMarkWith(async () => void (answered = outsideTransaction(newest)));
    expect(await answered).toBe(((await sent.json()) as { id: number }).id);
  });

  test('a read made while a send to its user is being written answers as before when the send is rolled back', async () => {
    expect(await newest()).toBe(4);
    let answered: Promise<number> | undefined;
    const sent = await dmToMarkWith(async () => {
      answered = outsideTransaction(newest);
      throw new Error('rolled back');
    });
    expect(sent.status).toBe(500);
    expect(await answered).toBe(4);
    expect(await newest()).toBe(4);
  });

  test('a name and a profile field changed after an answer show in the next one', async () => {
    await realm.as('mark').get('/users/me');
    expect((await realm.as('mark').patch('/settings', { full_name: 'Mark Renamed' })).status).toBe(200);
    const { body } = await realm.as('mark').get('/users/me');
    expect(body.full_name).toBe('Mark Renamed');
  });
});

describe('GET /users/{user_id}', () => {
  test('returns one user; bots carry their owner', async () => {
    const { body } = await realm.as('mia').get(`/users/${IDS.bot}`);
    expect(body.user).toMatchObject({ user_id: IDS.bot, is_bot: true, bot_type: 1, bot_owner_id: IDS.mark, email: 'bot@zulip.test' });
    expect(body.user).not.toHaveProperty('profile_data');
  });

  test('an unknown id is "No such user"', async () => {
    const { status, body } = await realm.as('mark').get('/users/999');
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
  });

  test('visibility 1: everyone sees real emails', async () => {
    await setVisibility(1);
    expect(await miaAsSeenBy('gail')).toEqual(REAL);
  });

  test('visibility 2: members see real emails, guests the dummy address', async () => {
    await setVisibility(2);
    expect(await miaAsSeenBy('mark')).toEqual(REAL);
    expect(await miaAsSeenBy('gail')).toEqual(DUMMY);
  });

  test('visibility 3: only administrators see real emails', async () => {
    await setVisibility(3);
    expect(await miaAsSeenBy('adam')).toEqual(REAL);
    expect(await miaAsSeenBy('mona')).toEqual(DUMMY);
  });

  test('visibility 4: nobody sees real emails, except of bots', async () => {
    await setVisibility(4);
    expect(await miaAsSeenBy('olivia')).toEqual(DUMMY);
    const bot = await realm.as('olivia').get(`/users/${IDS.bot}`);
    expect(bot.body.user).toMatchObject({ email: 'bot@zulip.test', delivery_email: 'bot@zulip.test' });
  });

  test('visibility 5: moderators and above see real emails', async () => {
    await setVisibility(5);
    expect(await miaAsSeenBy('mona')).toEqual(REAL);
    expect(await miaAsSeenBy('mark')).toEqual(DUMMY);
  });
});

describe('GET /users/{email}', () => {
  test('finds a user by real email when it is visible', async () => {
    const { status, body } = await realm.as('mark').get('/users/MIA@zulip.test');
    expect(status).toBe(200);
    expect(body.user).toMatchObject({ user_id: IDS.mia, email: 'mia@zulip.test' });
  });

  test('a hidden real email finds nobody, while the dummy address always works', async () => {
    await setVisibility(4);
    const hidden = await realm.as('mark').get('/users/mia@zulip.test');
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
    const dummy = await realm.as('mark').get(`/users/user${IDS.mia}@zulip.test`);
    expect(dummy.body.user).toMatchObject({ user_id: IDS.mia, ...DUMMY });
  });

  test('an unknown email is "No such user"', async () => {
    const { body } = await realm.as('mark').get('/users/nobody@zulip.test');
    expect(body).toEqual({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
  });
});

describe('GET /server_settings', () => {
  test('needs no credentials and describes the server and realm', async () => {
    const { status, body } = await realm.anonymous().get('/server_settings');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      result: 'success',
      authentication_methods: { password: true, email: true, ldap: false, google: false },
      external_authentication_methods: [],
      service_feature_level: 417,
      service_version: '11.0-offline-realm',
      email_auth_enabled: true,
      require_email_format_usernames: true,
      realm_url: 'http://zulip.test',
      realm_uri: 'http://zulip.test',
      realm_name: 'Test Realm',
      realm_description: '',
      realm_web_public_access_enabled: false,
      push_notifications_enabled: false,
      is_incompatible: false,
    });
  });

  test('renders the realm description', async () => {
    await realm.as('olivia').patch('/realm', { description: 'A **test** realm' });
    const { body } = await realm.anonymous().get('/server_settings');
    expect(body.realm_description).toBe('<p>A <strong>test</strong> realm</p>');
  });

  test('reports web-public access once spectators are let in and a web-public channel exists', async () => {
    const access = async () => (await realm.anonymous().get('/server_settings')).body.realm_web_public_access_enabled;
    await realm.as('olivia').patch('/realm', { enable_spectator_access: true });
    expect(await access()).toBe(false);
    expect((await realm.as('olivia').patch(`/streams/${IDS.general}`, { is_web_public: true })).body).toEqual({ result: 'success', msg: '' });
    expect(await access()).toBe(true);
    await realm.as('olivia').patch('/realm', { enable_spectator_access: false });
    expect(await access()).toBe(false);
  });
});

describe('GET /avatar/{user_id}', () => {
  const get = (path: string, headers: Record<string, string> = {}) => realm.engine.handle(new Request(`http://zulip.test${path}`, { headers }));
  const MARK = { Authorization: `Basic ${btoa('mark@zulip.test:MarkKey0000000000000000000000004')}` };
  const notLoggedIn = { result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' };
  /** The avatar_url clients get for the user. */
  const avatarUrl = async (userId: number): Promise<string> => (await realm.as('mark').get(`/users/${userId}`)).body.user.avatar_url;

  test('is an SVG with the initials at the avatar_url clients get, which an <img> loads without credentials', async () => {
    const url = await avatarUrl(IDS.mark);
    expect(url).toMatch(new RegExp(`^/api/v1/avatar/${IDS.mark}\\?v=1&k=[a-z2-7]{24}$`));
    const response = await get(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    const svg = await response.text();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('>MM</text>');
  });

  test('is served to an authenticated caller by id alone, the medium size too', async () => {
    expect(await (await get(`/api/v1/avatar/${IDS.olivia}`, MARK)).text()).toContain('>OO</text>');
    const medium = await get(`/api/v1/avatar/${IDS.mark}/medium`, MARK);
    expect(medium.headers.get('content-type')).toBe('image/svg+xml');
    expect(await medium.text()).toContain('width="500"');
  });

  test('is refused without credentials or the key, even for a user that does not exist, as upstream', async () => {
    const url = await avatarUrl(IDS.olivia);
    const wrongKey = url.replace(/k=./, (k) => (k.endsWith('a') ? 'k=b' : 'k=a'));
    for (const path of [`/api/v1/avatar/${IDS.olivia}`, `/api/v1/avatar/${IDS.olivia}/medium?v=1`, wrongKey, url.replace(`/${IDS.olivia}?`, `/${IDS.mark}?`), '/api/v1/avatar/999']) {
      const response = await get(path);
      expect({ path, status: response.status, body: await response.json() }).toEqual({ path, status: 401, body: notLoggedIn });
    }
  });

  test('is served to spectators by id where the realm admits them', async () => {
    await realm.as('olivia').patch('/realm', { enable_spectator_access: true });
    await realm.as('olivia').patch(`/streams/${IDS.general}`, { is_web_public: true });
    const response = await get(`/api/v1/avatar/${IDS.mark}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(await response.text()).toContain('>MM</text>');
  });

  test('an unknown user is "No such user" to an authenticated caller', async () => {
    const response = await get('/api/v1/avatar/999', MARK);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
  });
});
