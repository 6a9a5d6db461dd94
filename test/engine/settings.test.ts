import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const SUCCESS = { result: 'success', msg: '' };
const settings = (params: Record<string, unknown>) => realm.as('mark').patch('/settings', params);
/** Mark's user object, as GET /users/me shows it. */
const mark = async () => (await realm.as('mark').get('/users/me')).body;
/** Mark's settings, as the register user_settings section shows them. */
const userSettings = async () =>
  (await realm.as('mark').post('/register', { fetch_event_types: ['user_settings'], client_capabilities: { user_settings_object: true } })).body
    .user_settings as Record<string, unknown>;
const mailSent = async () => (await realm.as('adam').get('/sandbox/outgoing_mail')).body.outgoing_mail as Record<string, unknown>[];
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>) => expectRefused(realm, send, expected);
const legacyQueue = () => openQueue(realm.engine, IDS.mark);
const modernQueue = () => openQueue(realm.engine, IDS.mark, { capabilities: { ...NO_CAPABILITIES, user_settings_object: true } });
const withoutIds = (events: { id: number }[]) => events.map(({ id: _id, ...event }) => event);

describe('PATCH /settings: personal settings', () => {
  test('stores a display setting and sends user_settings, plus the legacy event to clients without user_settings_object', async () => {
    const legacy = legacyQueue();
    const modern = modernQueue();
    const other = openQueue(realm.engine, IDS.mia);
    const before = await userSettings();
    expect(before.twenty_four_hour_time).toBe(false);
    expect((await settings({ twenty_four_hour_time: true })).body).toEqual(SUCCESS);
    expect(await userSettings()).toEqual({ ...before, twenty_four_hour_time: true });
    const modernEvent = { type: 'user_settings', op: 'update', property: 'twenty_four_hour_time', value: true };
    expect(withoutIds(modern.events)).toEqual([modernEvent]);
    expect(withoutIds(legacy.events)).toEqual([
      modernEvent,
      { type: 'update_display_settings', user: 'mark@zulip.test', setting_name: 'twenty_four_hour_time', setting: true },
    ]);
    expect(other.events).toEqual([]);
  });

  test('sends update_global_notifications for a notification setting, and only user_settings for newer settings', async () => {
    const legacy = legacyQueue();
    await settings({ enable_sounds: false, display_emoji_reaction_users: false });
    expect(withoutIds(legacy.events)).toEqual([
      { type: 'user_settings', op: 'update', property: 'display_emoji_reaction_users', value: false },
      { type: 'user_settings', op: 'update', property: 'enable_sounds', value: false },
      { type: 'update_global_notifications', user: 'mark@zulip.test', notification_name: 'enable_sounds', setting: false },
    ]);
  });

  test('lets a legacy client that asked only for the legacy event type receive it', async () => {
    const legacy = openQueue(realm.engine, IDS.mark, { eventTypes: new Set(['update_display_settings']) });
    await settings({ left_side_userlist: true });
    expect(withoutIds(legacy.events)).toEqual([
      { type: 'update_display_settings', user: 'mark@zulip.test', setting_name: 'left_side_userlist', setting: true },
    ]);
  });

  test('sends nothing for a value that does not change', async () => {
    const before = await userSettings();
    const legacy = legacyQueue();
    expect((await settings({ enter_sends: false, color_scheme: 1 })).body).toEqual(SUCCESS);
    expect(legacy.events).toEqual([]);
    expect(await userSettings()).toEqual(before);
    // The API shows every setting's value: that a default is not written down is in storage alone.
    expect((await realm.engine.db.users.get(IDS.mark))!.settings).toEqual({});
  });

  test('shows the new values in the register user_settings section', async () => {
    await settings({ web_font_size_px: 18, emojiset: 'text', web_home_view: 'recent_topics' });
    const { body } = await realm.as('mark').post('/register', {
      fetch_event_types: ['user_settings'],
      client_capabilities: { user_settings_object: true },
    });
    expect(body.user_settings).toMatchObject({ web_font_size_px: 18, emojiset: 'text', web_home_view: 'recent_topics' });
  });

  test('names the language with default_language', async () => {
    const legacy = legacyQueue();
    await settings({ default_language: 'de' });
    expect(withoutIds(legacy.events)).toEqual([
      { type: 'user_settings', op: 'update', property: 'default_language', value: 'de', language_name: 'Deutsch' },
      { type: 'update_display_settings', user: 'mark@zulip.test', setting_name: 'default_language', setting: 'de', language_name: 'Deutsch' },
    ]);
  });

  test.each([
    [{ default_language: 'xx' }, 'Invalid default_language'],
    [{ notification_sound: 'trumpet' }, "Invalid notification sound 'trumpet'"],
    [{ email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
    [{ email_notifications_batching_period_seconds: 604801 }, 'Invalid email batching period: 604801 seconds'],
    [{ color_scheme: 7 }, 'Invalid color_scheme'],
    [{ emojiset: 'apple' }, 'Invalid emojiset'],
    [{ web_home_view: 'feed' }, 'Invalid web_home_view'],
    [{ enter_sends: 'yes' }, 'enter_sends is not valid JSON'],
    [{ enter_sends: 1 }, 'enter_sends is not a boolean'],
    [{ web_font_size_px: 'big' }, 'web_font_size_px is not valid JSON'],
    [{ timezone: 'Mars/Olympus' }, 'Not a recognized time zone'],
    [{ timezone: '+01:00' }, 'Not a recognized time zone'],
  ])('refuses %j and changes nothing', async (params, msg) => {
    await refused(() => settings({ twenty_four_hour_time: true, ...params }), error(msg));
  });

  test("accepts 'none' as notification sound", async () => {
    expect((await settings({ notification_sound: 'none' })).body).toEqual(SUCCESS);
    expect((await userSettings()).notification_sound).toBe('none');
  });

  test('reports parameters it does not know', async () => {
    expect((await settings({ enter_sends: true, fancy_mode: true })).body).toEqual({ ...SUCCESS, ignored_parameters_unsupported: ['fancy_mode'] });
    expect((await userSettings()).enter_sends).toBe(true);
  });

  test('refuses bots', async () => {
    await refused(() => realm.as('bot').patch('/settings', { enter_sends: true }), error('This endpoint does not accept bot requests.'));
  });
});

describe('PATCH /settings: time zone', () => {
  test('stores the time zone and tells the realm, with the legacy display event for old clients', async () => {
    const legacy = legacyQueue();
    const mia = openQueue(realm.engine, IDS.mia);
    expect((await settings({ timezone: 'Europe/Paris' })).body).toEqual(SUCCESS);
    expect((await mark()).timezone).toBe('Europe/Paris');
    expect((await userSettings()).timezone).toBe('Europe/Paris');
    expect(withoutIds(legacy.events)).toEqual([
      { type: 'user_settings', op: 'update', property: 'timezone', value: 'Europe/Paris' },
      { type: 'update_display_settings', user: 'mark@zulip.test', setting_name: 'timezone', setting: 'Europe/Paris' },
      { type: 'realm_user', op: 'update', person: { email: 'mark@zulip.test', user_id: IDS.mark, timezone: 'Europe/Paris' } },
    ]);
    expect(withoutIds(mia.events)).toEqual([
      { type: 'realm_user', op: 'update', person: { email: 'mark@zulip.test', user_id: IDS.mark, timezone: 'Europe/Paris' } },
    ]);
  });
});

describe('PATCH /settings: name, email and password', () => {
  test('renames the caller', async () => {
    const mia = openQueue(realm.engine, IDS.mia);
    expect((await settings({ full_name: 'Mark Maker' })).body).toEqual(SUCCESS);
    expect((await mark()).full_name).toBe('Mark Maker');
    expect(withoutIds(mia.events)).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: IDS.mark, full_name: 'Mark Maker' } }]);
    await refused(() => settings({ full_name: '  ' }), error('Name must not be empty!'));
    await refused(() => settings({ full_name: 'Mark `code`' }), error('Invalid characters in name!'));
  });

  test('starts an email change: the confirmation is recorded for the new address, which is not in effect yet', async () => {
    expect((await settings({ email: ' mark@new.test ' })).body).toEqual(SUCCESS);
    expect(await mark()).toMatchObject({ email: 'mark@zulip.test', delivery_email: 'mark@zulip.test' });
    expect(await mailSent()).toEqual([
      expect.objectContaining({ id: 1, to: 'mark@new.test', kind: 'email_change', subject: 'Verify your new email address for Test Realm' }),
    ]);
  });

  test('refuses an invalid or taken email address', async () => {
    await refused(() => settings({ email: 'mark' }), error('Invalid address.'));
    await refused(() => settings({ email: 'mia@zulip.test' }), error('Already has an account.'));
  });

  test('changes the password when the old one is right', async () => {
    expect((await settings({ old_password: 'mark-pass', new_password: 'new-secret' })).body).toEqual(SUCCESS);
    const login = (password: string) => realm.anonymous().post('/fetch_api_key', { username: 'mark@zulip.test', password });
    expect((await login('new-secret')).body).toEqual({ ...SUCCESS, api_key: 'MarkKey0000000000000000000000004', email: 'mark@zulip.test', user_id: IDS.mark });
    expect(await login('mark-pass')).toEqual({
      status: 401,
      body: { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' },
    });
  });

  test('refuses a wrong old password and a weak new one, keeping the password', async () => {
    await refused(() => settings({ old_password: 'guess', new_password: 'new-secret' }), error('Wrong password!'));
    await refused(() => settings({ new_password: 'new-secret' }), error('Wrong password!'));
    await refused(() => settings({ old_password: 'mark-pass', new_password: 'abc' }), error('New password is too weak!'));
    expect((await realm.anonymous().post('/fetch_api_key', { username: 'mark@zulip.test', password: 'mark-pass' })).body.result).toBe('success');
  });

  test('refuses a new password longer than the realm allows', async () => {
    await refused(() => settings({ old_password: 'mark-pass', new_password: 'p'.repeat(101) }), error('The password is too long.'));
  });

  test('counts a wrong old password as a failed login: the sixth try within 30 minutes is refused, as is a login', async () => {
    for (let i = 0; i < 5; i++) await refused(() => settings({ old_password: 'guess', new_password: 'new-secret' }), error('Wrong password!'));
    await refused(() => settings({ old_password: 'mark-pass', new_password: 'new-secret' }), error("You're making too many attempts! Try again in 1800 seconds."));
    const login = await realm.anonymous().post('/fetch_api_key', { username: 'mark@zulip.test', password: 'mark-pass' });
    expect(login).toEqual({ status: 429, body: { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 1800 } });
  });
});
