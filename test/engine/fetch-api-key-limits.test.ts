import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => {
  vi.restoreAllMocks();
  realm.engine.close();
});

const FAILED = { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' };
const rateLimited = (seconds: number) => ({ result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': seconds });

/** POST /fetch_api_key from a client address, as the Node host passes it. */
async function login(username: string, password: string, clientAddress = '192.0.2.1') {
  const request = new Request('http://zulip.test/api/v1/fetch_api_key', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username, password }),
  });
  const response = await realm.engine.handle(request, { clientAddress });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
}

const MARK_KEY = { result: 'success', msg: '', api_key: 'MarkKey0000000000000000000000004', email: 'mark@zulip.test', user_id: IDS.mark };

describe('POST /fetch_api_key rate limits', () => {
  it('refuses a sixth attempt on one account within 30 minutes, even with the right password', async () => {
    for (let i = 0; i < 5; i++) expect(await login('mark@zulip.test', 'wrong-pass')).toMatchObject({ status: 401, body: FAILED });
    realm.clock.advance(600_000);
    expect(await login('mark@zulip.test', 'mark-pass')).toEqual({ status: 429, retryAfter: '1200', body: rateLimited(1200) });
    realm.clock.advance(1_200_000);
    expect(await login('mark@zulip.test', 'mark-pass')).toMatchObject({ status: 200, body: MARK_KEY });
  });

  it('counts an account however its address is spelled, and from any client address', async () => {
    for (const [i, username] of ['mark@zulip.test', 'MARK@zulip.test', ' Mark@Zulip.Test ', 'mark@ZULIP.test', 'mark@zulip.test'].entries()) {
      expect((await login(username, 'wrong-pass', `192.0.2.${i + 10}`)).status).toBe(401);
    }
    expect(await login('mark@zulip.test', 'mark-pass', '198.51.100.7')).toMatchObject({ status: 429, body: rateLimited(1800) });
    // Another account is not affected.
    expect((await login('adam@zulip.test', 'adam-pass')).status).toBe(200);
  });

  it('starts the count again after a successful login', async () => {
    for (let i = 0; i < 4; i++) await login('mark@zulip.test', 'wrong-pass');
    expect((await login('mark@zulip.test', 'mark-pass')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login('mark@zulip.test', 'wrong-pass')).status).toBe(401);
    expect((await login('mark@zulip.test', 'mark-pass')).status).toBe(200);
  });

  it('limits an unknown address the same way, so the limit does not tell which accounts exist', async () => {
    for (let i = 0; i < 5; i++) expect(await login('nobody@zulip.test', 'wrong-pass')).toMatchObject({ status: 401, body: FAILED });
    expect(await login('nobody@zulip.test', 'wrong-pass')).toMatchObject({ status: 429, body: rateLimited(1800) });
  });

  it('refuses the 101st attempt from one client address within a minute, whatever the accounts', async () => {
    for (let i = 0; i < 100; i++) expect((await login(`guess${i}@zulip.test`, 'wrong-pass')).status).toBe(401);
    expect(await login('mark@zulip.test', 'mark-pass')).toEqual({ status: 429, retryAfter: '60', body: rateLimited(60) });
    expect((await login('mark@zulip.test', 'mark-pass', '192.0.2.99')).status).toBe(200);
    realm.clock.advance(60_000);
    expect((await login('mark@zulip.test', 'mark-pass')).status).toBe(200);
  });
});

describe('POST /fetch_api_key password checks', () => {
  it('hashes the password for an unknown account and for one without a password, as for a real one', async () => {
    const derive = vi.spyOn(crypto.subtle, 'deriveBits');
    await login('mark@zulip.test', 'wrong-pass');
    expect(derive).toHaveBeenCalledTimes(1);
    await login('nobody@zulip.test', 'wrong-pass');
    expect(derive).toHaveBeenCalledTimes(2);
    await login('mia@zulip.test', 'wrong-pass');
    expect(derive).toHaveBeenCalledTimes(3);
    // With the same cost: the iteration count a real account's hash has.
    expect(derive.mock.calls.map(([params]) => (params as Pbkdf2Params).iterations)).toEqual([1000, 1000, 1000]);
  });

  it('refuses a password longer than the realm allows without hashing it', async () => {
    const derive = vi.spyOn(crypto.subtle, 'deriveBits');
    expect(await login('mark@zulip.test', 'p'.repeat(5_000_000))).toMatchObject({ status: 401, body: FAILED });
    expect(await login('nobody@zulip.test', 'p'.repeat(101))).toMatchObject({ status: 401, body: FAILED });
    expect(derive).not.toHaveBeenCalled();
  });
});
