import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, TEST_SCENARIO, TestClient, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const NEW_USER = 15;
const NINA = { email: 'nina@example.com', password: 'nina-pass', full_name: 'Nina New' };
const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>, status = 400) => expectRefused(realm, send, expected, status);
const create = (params: Record<string, unknown>) => realm.as('olivia').post('/users', params);

describe('POST /users', () => {
  it('creates a member account that logs in with its password, tells every user and joins the default channels', async () => {
    const watcher = openQueue(realm.engine, IDS.mark);
    const { status, body } = await create(NINA);
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', user_id: NEW_USER });
    expect(watcher.events).toEqual([
      {
        id: 0,
        type: 'realm_user',
        op: 'add',
        person: expect.objectContaining({ user_id: NEW_USER, full_name: 'Nina New', email: NINA.email, role: 400, is_active: true }),
      },
      expect.objectContaining({ type: 'subscription', op: 'peer_add', stream_ids: [IDS.general], user_ids: [NEW_USER] }),
    ]);
    const login = await realm.anonymous().post('/fetch_api_key', { username: NINA.email, password: NINA.password });
    expect(login.body).toMatchObject({ result: 'success', email: NINA.email, user_id: NEW_USER });
    const nina = new TestClient(realm.engine, NINA.email, login.body.api_key);
    expect((await nina.get('/users/me/subscriptions')).body.subscriptions.map((s: { stream_id: number }) => s.stream_id)).toEqual([IDS.general]);
  });

  it('gives the new account the organization defaults for new users', async () => {
    await realm.as('adam').patch('/realm/user_settings_defaults', { twenty_four_hour_time: true });
    await create(NINA);
    const login = await realm.anonymous().post('/fetch_api_key', { username: NINA.email, password: NINA.password });
    const nina = new TestClient(realm.engine, NINA.email, login.body.api_key);
    const state = await nina.post('/register', { fetch_event_types: ['user_settings'], client_capabilities: { user_settings_object: true } });
    expect(state.body.user_settings.twenty_four_hour_time).toBe(true);
  });

  it("refuses administrators without upstream's can_create_users, and members", async () => {
    await refused(() => realm.as('adam').post('/users', NINA), error('User not authorized to create users'));
    await refused(() => realm.as('mark').post('/users', NINA), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
  });

  it('refuses a taken address, a bad one, a bad name and a weak password, changing nothing', async () => {
    await refused(() => create({ ...NINA, email: 'Mark@zulip.test' }), error("Email 'Mark@zulip.test' already in use"));
    await refused(() => create({ ...NINA, email: 'not-an-address' }), error('Bad name or username'));
    await refused(() => create({ ...NINA, full_name: 'x'.repeat(101) }), error('Name too long!'));
    await refused(() => create({ ...NINA, password: 'abc' }), error('The password is too weak.'));
    await refused(() => create({ email: NINA.email, full_name: NINA.full_name }), { ...error("Missing 'password' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'password' });
  });
});

describe('POST /dev_fetch_api_key', () => {
  it("answers as upstream's production server unless the scenario enables development login", async () => {
    await refused(() => realm.anonymous().post('/dev_fetch_api_key', { username: 'mark@zulip.test' }), error('Endpoint not available in production.'));
  });

  it('logs in by email alone where the scenario enables it', async () => {
    const dev = await createTestRealm({ ...TEST_SCENARIO, realm: { ...TEST_SCENARIO.realm, enable_dev_login: true } });
    try {
      const { status, body } = await dev.anonymous().post('/dev_fetch_api_key', { username: 'Mark@zulip.test' });
      expect(status).toBe(200);
      expect(body).toEqual({ result: 'success', msg: '', api_key: 'MarkKey0000000000000000000000004', email: 'mark@zulip.test', user_id: IDS.mark });
      const unknown = await dev.anonymous().post('/dev_fetch_api_key', { username: 'nobody@zulip.test' });
      expect([unknown.status, unknown.body]).toEqual([401, error('Your username or password is incorrect', 'AUTHENTICATION_FAILED')]);
      await dev.as('adam').delete(`/users/${IDS.mia}`);
      const deactivated = await dev.anonymous().post('/dev_fetch_api_key', { username: 'mia@zulip.test' });
      expect([deactivated.status, deactivated.body]).toEqual([401, error('Account is deactivated', 'USER_DEACTIVATED')]);
    } finally {
      dev.engine.close();
    }
  });
});
