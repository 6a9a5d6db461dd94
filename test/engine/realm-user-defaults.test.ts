import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, TestClient, type TestRealm } from '../support/test-realm.ts';
import { acceptAddressFromMail } from '../support/invitation-mail.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>) => expectRefused(realm, send, expected);
const patchDefaults = (params: Record<string, unknown>) => realm.as('adam').patch('/realm/user_settings_defaults', params);
const defaults = async () =>
  (await realm.as('mark').post('/register', { fetch_event_types: ['realm_user_settings_defaults'] })).body.realm_user_settings_defaults;

/** A new account made through an accepted invitation, as the sandbox offers it. */
async function newAccount(): Promise<TestClient> {
  await realm.as('adam').post('/invites', { invitee_emails: 'nina@example.com', stream_ids: [] });
  const inviteId = (await realm.as('adam').get('/invites')).body.invites.at(-1).id;
  const { body } = await realm.anonymous().post(await acceptAddressFromMail(realm, inviteId), { full_name: 'Nina New', password: 'nina-pass' });
  return new TestClient(realm.engine, 'nina@example.com', body.api_key);
}

describe('PATCH /realm/user_settings_defaults', () => {
  it('changes the defaults, announces each changed one to every user and shows them in register', async () => {
    const watcher = openQueue(realm.engine, IDS.gail);
    const { status, body } = await patchDefaults({ left_side_userlist: true, twenty_four_hour_time: true, web_home_view: 'inbox' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(watcher.events).toEqual([
      { id: 0, type: 'realm_user_settings_defaults', op: 'update', property: 'twenty_four_hour_time', value: true },
      { id: 1, type: 'realm_user_settings_defaults', op: 'update', property: 'left_side_userlist', value: true },
    ]);
    expect(await defaults()).toMatchObject({ left_side_userlist: true, twenty_four_hour_time: true, web_home_view: 'inbox' });
  });

  it('gives accounts created afterwards the new defaults, and leaves existing accounts as they were', async () => {
    await patchDefaults({ emojiset: 'text', enter_sends: true });
    const nina = await newAccount();
    const settings = (await nina.post('/register', { fetch_event_types: ['user_settings'], client_capabilities: { user_settings_object: true } })).body.user_settings;
    expect([settings.emojiset, settings.enter_sends]).toEqual(['text', true]);
    const marks = (await realm.as('mark').post('/register', { fetch_event_types: ['user_settings'], client_capabilities: { user_settings_object: true } })).body.user_settings;
    expect([marks.emojiset, marks.enter_sends]).toEqual(['google', false]);
  });

  it('refuses non-administrators and bad values, changing nothing', async () => {
    await refused(() => realm.as('mark').patch('/realm/user_settings_defaults', { enter_sends: true }), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    await refused(() => patchDefaults({ enter_sends: true, color_scheme: 9 }), error('Invalid color_scheme'));
    await refused(() => patchDefaults({ notification_sound: 'bell' }), error("Invalid notification sound 'bell'"));
    await refused(() => patchDefaults({ email_notifications_batching_period_seconds: 0 }), error('Invalid email batching period: 0 seconds'));
  });

  it('reports the settings an organization cannot default as ignored', async () => {
    const { body } = await patchDefaults({ default_language: 'de', enable_login_emails: false });
    expect(body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['default_language', 'enable_login_emails'] });
    expect(await defaults()).toMatchObject({ default_language: 'en', enable_login_emails: true });
  });
});
