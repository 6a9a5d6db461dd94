import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportRealm } from '../../src/engine/realm-archive/realm-archive.ts';
import { createTestRealm, type TestRealm } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';
import { IDS } from '../support/test-scenario.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const SUCCESS = { result: 'success', msg: '' };
const APNS_TOKEN = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
/** The registrations as the realm archive (upstream: its realm export) lists them. */
const registered = async () => (await exportRealm(realm.engine)).tables.push_device_tokens;

describe('APNs device tokens', () => {
  it('stores a token with its app id per user, refreshes it when registered again, and deletes it', async () => {
    const add = () => realm.as('mark').post('/users/me/apns_device_token', { token: APNS_TOKEN, appid: 'org.zulip.Zulip' });
    expect(await add()).toEqual({ status: 200, body: SUCCESS });
    const first = { user_id: IDS.mark, kind: 1, token: APNS_TOKEN, ios_app_id: 'org.zulip.Zulip', last_updated: realm.engine.nowSeconds() };
    expect(await registered()).toEqual([first]);
    realm.clock.advance(60_000);
    expect((await add()).body).toEqual(SUCCESS);
    expect(await registered()).toEqual([{ ...first, last_updated: first.last_updated + 60 }]);
    expect(await realm.as('mark').delete('/users/me/apns_device_token', { token: APNS_TOKEN })).toEqual({ status: 200, body: SUCCESS });
    expect(await registered()).toEqual([]);
  });

  it('refuses an empty, overlong or undecodable token, a malformed app id, an unknown token and bots', async () => {
    const add = (params: Record<string, unknown>) => () => realm.as('mark').post('/users/me/apns_device_token', params);
    await expectRefused(realm, add({ token: '', appid: 'org.zulip.Zulip' }), error('Empty or invalid length token'));
    await expectRefused(realm, add({ token: 'a'.repeat(4097), appid: 'org.zulip.Zulip' }), error('Empty or invalid length token'));
    await expectRefused(realm, add({ token: 'abcde', appid: 'org.zulip.Zulip' }), error('Invalid APNS token'));
    await expectRefused(realm, add({ token: APNS_TOKEN, appid: 'org zulip' }), error('appid has invalid format'));
    await expectRefused(realm, add({ token: APNS_TOKEN }), { ...error("Missing 'appid' argument", 'REQUEST_VARIABLE_MISSING'), var_name: 'appid' });
    await expectRefused(realm, () => realm.as('mark').delete('/users/me/apns_device_token', { token: APNS_TOKEN }), error('Token does not exist'));
    await expectRefused(
      realm,
      () => realm.as('bot').post('/users/me/apns_device_token', { token: APNS_TOKEN, appid: 'org.zulip.Zulip' }),
      error('This endpoint does not accept bot requests.'),
    );
  });
});

describe('FCM registration ids', () => {
  it('stores and deletes a registration id, kept apart from APNs tokens and from other users', async () => {
    expect((await realm.as('mia').post('/users/me/android_gcm_reg_id', { token: 'android-token' })).body).toEqual(SUCCESS);
    expect(await registered()).toEqual([
      { user_id: IDS.mia, kind: 2, token: 'android-token', ios_app_id: null, last_updated: realm.engine.nowSeconds() },
    ]);
    await expectRefused(realm, () => realm.as('mark').delete('/users/me/android_gcm_reg_id', { token: 'android-token' }), error('Token does not exist'));
    await expectRefused(realm, () => realm.as('mia').delete('/users/me/apns_device_token', { token: 'android-token' }), error('Token does not exist'));
    expect((await realm.as('mia').delete('/users/me/android_gcm_reg_id', { token: 'android-token' })).body).toEqual(SUCCESS);
    expect(await registered()).toEqual([]);
  });

  it('refuses an empty token', async () => {
    await expectRefused(realm, () => realm.as('mia').post('/users/me/android_gcm_reg_id', { token: '' }), error('Empty or invalid length token'));
  });
});

describe('POST /mobile_push/test_notification', () => {
  it('succeeds for a registered device or for all devices, sending nothing', async () => {
    await realm.as('mia').post('/users/me/android_gcm_reg_id', { token: 'android-token' });
    expect(await realm.as('mia').post('/mobile_push/test_notification', { token: 'android-token' })).toEqual({ status: 200, body: SUCCESS });
    expect((await realm.as('mia').post('/mobile_push/test_notification')).body).toEqual(SUCCESS);
  });

  it('refuses a token the caller never registered', async () => {
    await realm.as('mia').post('/users/me/android_gcm_reg_id', { token: 'android-token' });
    const send = () => realm.as('mark').post('/mobile_push/test_notification', { token: 'android-token' });
    await expectRefused(realm, send, error('Device not recognized', 'INVALID_PUSH_DEVICE_TOKEN'));
  });
});
