import { expect, it } from 'vitest';
import { caseSuite, IDS } from './harness.ts';

const MARK_KEY = 'MarkKey0000000000000000000000004';
const SEND = { type: 'channel', to: 'general', topic: 'auth', content: 'hi' };

export const authCases = caseSuite('authentication', (api) => {
  it('refuses a call without credentials with 401, UNAUTHORIZED and a Basic challenge', async () => {
    const answer = await api.anonymous().post('/messages', SEND);
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Basic realm="zulip"');
    expect(answer.body).toEqual({ result: 'error', msg: 'Missing authorization header for basic auth', code: 'UNAUTHORIZED' });
  });

  it('refuses a malformed API key', async () => {
    const answer = await api.withKey('mark@zulip.test', 'short').get('/users/me');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ result: 'error', msg: 'Malformed API key', code: 'INVALID_API_KEY' });
  });

  it("refuses a key that belongs to someone else's email", async () => {
    const answer = await api.withKey('mia@zulip.test', MARK_KEY).get('/users/me');
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' });
  });

  it('accepts the dummy user{id}@host address with the right key', async () => {
    const answer = await api.withKey(`user${IDS.mark}@zulip.test`, MARK_KEY).get('/users/me');
    expect(answer.status).toBe(200);
    expect(answer.body.user_id).toBe(IDS.mark);
  });

  it('exchanges an email, in any case, and password for the API key with fetch_api_key', async () => {
    const answer = await api.anonymous().post('/fetch_api_key', { username: 'Mark@Zulip.test', password: 'mark-pass' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: 'success', msg: '', api_key: MARK_KEY, email: 'mark@zulip.test', user_id: IDS.mark });
  });

  it('refuses a wrong password, and a user without one, with 401 AUTHENTICATION_FAILED', async () => {
    const wrong = await api.anonymous().post('/fetch_api_key', { username: 'mark@zulip.test', password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' });
    const none = await api.anonymous().post('/fetch_api_key', { username: 'mia@zulip.test', password: '' });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('AUTHENTICATION_FAILED');
  });

  it('refuses fetch_api_key without a password as a missing argument', async () => {
    const answer = await api.anonymous().post('/fetch_api_key', { username: 'mark@zulip.test' });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ result: 'error', code: 'REQUEST_VARIABLE_MISSING', var_name: 'password' });
  });

  it('lets the key from fetch_api_key authenticate the next call', async () => {
    const login = await api.anonymous().post('/fetch_api_key', { username: 'olivia@zulip.test', password: 'olivia-pass' });
    const me = await api.withKey(login.body.email, login.body.api_key).get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user_id: IDS.olivia, is_owner: true });
  });
});
