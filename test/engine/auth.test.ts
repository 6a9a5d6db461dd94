import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, TestClient, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const WWW = 'Basic realm="zulip"';

describe('HTTP Basic authentication', () => {
  it('refuses a request without credentials with 401 and a WWW-Authenticate header', async () => {
    const response = await realm.engine.handle(new Request('http://zulip.test/api/v1/messages', { method: 'POST' }));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(WWW);
    expect(await response.json()).toEqual({
      result: 'error',
      msg: 'Missing authorization header for basic auth',
      code: 'UNAUTHORIZED',
    });
  });

  it('refuses a malformed API key', async () => {
    const { status, body } = await new TestClient(realm.engine, 'mark@zulip.test', 'short').post('/messages');
    expect(status).toBe(401);
    expect(body).toEqual({ result: 'error', msg: 'Malformed API key', code: 'INVALID_API_KEY' });
  });

  it("refuses a key that belongs to someone else's email", async () => {
    const { status, body } = await new TestClient(realm.engine, 'mia@zulip.test', 'MarkKey0000000000000000000000004').post('/messages');
    expect(status).toBe(401);
    expect(body).toEqual({ result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' });
  });

  it('accepts the dummy user{id}@host address as the API email', async () => {
    const client = new TestClient(realm.engine, `user${IDS.mark}@zulip.test`, 'MarkKey0000000000000000000000004');
    const { body } = await client.post('/messages', { type: 'channel', to: 'general', topic: 't', content: 'hi' });
    expect(body).toMatchObject({ result: 'success', msg: '', id: 5 });
    expect((await realm.as('mia').get('/messages/5', { apply_markdown: false })).body.message).toMatchObject({ sender_id: IDS.mark, content: 'hi' });
  });

  it('refuses a deactivated user with USER_DEACTIVATED', async () => {
    await realm.as('olivia').delete(`/users/${IDS.mark}`);
    const { status, body } = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 't', content: 'hi' });
    expect(status).toBe(401);
    expect(body).toEqual({ result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' });
  });

  it('refuses the same header once its user is deactivated, though it was accepted before', async () => {
    expect((await realm.as('mark').get('/users/me')).status).toBe(200);
    await realm.as('olivia').delete(`/users/${IDS.mark}`);
    const { status, body } = await realm.as('mark').get('/users/me');
    expect(status).toBe(401);
    expect(body).toEqual({ result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' });
  });
});

describe('POST /fetch_api_key', () => {
  it('exchanges an email and password for the API key', async () => {
    const { status, body } = await realm.anonymous().post('/fetch_api_key', { username: 'Mark@Zulip.test', password: 'mark-pass' });
    expect(status).toBe(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      api_key: 'MarkKey0000000000000000000000004',
      email: 'mark@zulip.test',
      user_id: IDS.mark,
    });
  });

  it('refuses a wrong password with 401 AUTHENTICATION_FAILED', async () => {
    const { status, body } = await realm.anonymous().post('/fetch_api_key', { username: 'mark@zulip.test', password: 'nope' });
    expect(status).toBe(401);
    expect(body).toEqual({ result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' });
  });

  it('refuses a user with no password set the same way as a wrong password', async () => {
    const { status, body } = await realm.anonymous().post('/fetch_api_key', { username: 'mia@zulip.test', password: '' });
    expect(status).toBe(401);
    expect(body).toEqual({ result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' });
  });

  it('refuses a deactivated user even with the right password', async () => {
    await realm.as('olivia').delete(`/users/${IDS.mark}`);
    const { status, body } = await realm.anonymous().post('/fetch_api_key', { username: 'mark@zulip.test', password: 'mark-pass' });
    expect(status).toBe(401);
    expect(body).toEqual({ result: 'error', msg: 'Account is deactivated', code: 'USER_DEACTIVATED' });
  });

  it('stores passwords only as salted PBKDF2 hashes', async () => {
    // The API never returns a password hash: how passwords are kept is in storage alone.
    const owner = await realm.engine.db.users.get(IDS.olivia);
    expect(owner?.password_hash).toMatch(/^pbkdf2-sha256\$1000\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(JSON.stringify(await realm.engine.db.users.toArray())).not.toContain('olivia-pass');
  });
});
