import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const NOW = Date.UTC(2026, 0, 1, 12) / 1000;
const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });
const success = { result: 'success', msg: '' };
const setStatus = (params: Record<string, unknown>, user: 'mia' | 'bot' = 'mia') => realm.as(user).post('/users/me/status', params);
const statusOf = async (userId: number) => (await realm.as('mark').get(`/users/${userId}/status`)).body;
const car = { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' };

describe('POST /users/me/status', () => {
  it('sets the text and emoji, and tells every active user just what changed', async () => {
    const mark = openQueue(realm.engine, IDS.mark);
    const mia = openQueue(realm.engine, IDS.mia);
    expect(await setStatus({ status_text: '  on vacation ', emoji_name: 'car' })).toEqual({ status: 200, body: success });
    const event = { type: 'user_status', user_id: IDS.mia, status_text: 'on vacation', ...car };
    expect(mark.events).toEqual([{ id: 0, ...event }]);
    expect(mia.events).toEqual([{ id: 0, ...event }]);
    expect(await realm.engine.db.user_status.get(IDS.mia)).toEqual({ user_id: IDS.mia, status_text: 'on vacation', ...car, timestamp: NOW });
    expect(await statusOf(IDS.mia)).toEqual({ ...success, status: { status_text: 'on vacation', ...car } });
  });

  it('changes only the fields given, and clears text and emoji with empty strings', async () => {
    await setStatus({ status_text: 'busy', emoji_name: 'car' });
    await setStatus({ status_text: 'in a meeting' });
    expect((await statusOf(IDS.mia)).status).toEqual({ status_text: 'in a meeting', ...car });
    const mark = openQueue(realm.engine, IDS.mark);
    await setStatus({ emoji_name: '' });
    expect(mark.events).toEqual([{ id: 0, type: 'user_status', user_id: IDS.mia, emoji_name: '', emoji_code: '', reaction_type: 'unicode_emoji' }]);
    await setStatus({ status_text: '' });
    expect((await statusOf(IDS.mia)).status).toEqual({});
  });

  it('takes the deprecated away as presence_enabled turned off, and shows it as away', async () => {
    const mia = openQueue(realm.engine, IDS.mia, { eventTypes: new Set(['user_status', 'user_settings']) });
    await setStatus({ away: true });
    expect(mia.events).toEqual([
      { id: 0, type: 'user_settings', op: 'update', property: 'presence_enabled', value: false },
      { id: 1, type: 'user_status', user_id: IDS.mia, away: true },
    ]);
    expect((await statusOf(IDS.mia)).status).toEqual({ away: true });
    const registered = await realm.as('mark').post('/register', { fetch_event_types: ['user_status'] });
    expect(registered.body.user_status).toEqual({ [String(IDS.mia)]: { away: true } });
    await setStatus({ away: false });
    expect((await statusOf(IDS.mia)).status).toEqual({});
  });

  it('accepts the "zulip" emoji under upstream\'s type name', async () => {
    await setStatus({ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'zulip_extra_emoji' });
    expect((await statusOf(IDS.mia)).status).toEqual({ emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' });
  });

  it.each([
    ['no values', {}, 'Client did not pass any new values.'],
    ['an emoji code without a name', { status_text: 'In a meeting', emoji_code: '1f4bb' }, 'Client must pass emoji_name if they pass either emoji_code or reaction_type.'],
    ['an unknown emoji', { emoji_name: 'invalid', emoji_code: '1f4bb' }, "Emoji 'invalid' does not exist"],
    ['a name that does not match the code', { emoji_name: 'car', emoji_code: '1f4bb' }, 'Invalid emoji name.'],
    ['an unknown custom emoji', { emoji_name: 'car', emoji_code: '1f4bb', reaction_type: 'realm_emoji' }, 'Invalid custom emoji.'],
    ['an unknown emoji type', { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'emoji' }, 'Invalid emoji type.'],
    ['a text over 60 characters', { status_text: 'x'.repeat(61) }, 'status_text is too long (limit: 60 characters)'],
    ['an away that is not a boolean', { away: 'yes' }, 'away is not valid JSON'],
  ])('refuses %s, changing nothing', async (_, params, msg) => {
    await expectRefused(realm, () => setStatus(params), error(msg));
  });

  it('refuses a bot', async () => {
    await expectRefused(realm, () => setStatus({ status_text: 'beep' }, 'bot'), error('This endpoint does not accept bot requests.'));
  });
});

describe('GET /users/{user_id}/status', () => {
  it('answers an empty status for a user who set none', async () => {
    expect(await realm.as('mark').get(`/users/${IDS.olivia}/status`)).toEqual({ status: 200, body: { ...success, status: {} } });
  });

  it('refuses an unknown user, a bot and a deactivated user', async () => {
    expect((await realm.as('mark').get('/users/999/status')).body).toEqual(error('No such user'));
    expect((await realm.as('mark').get(`/users/${IDS.bot}/status`)).body).toEqual(error('No such user'));
    await realm.as('olivia').delete(`/users/${IDS.mia}`);
    expect((await realm.as('mark').get(`/users/${IDS.mia}/status`)).body).toEqual(error('User is deactivated'));
  });
});

describe('the user_status register section', () => {
  it('lists the active users whose status says something', async () => {
    await setStatus({ status_text: 'on vacation', emoji_name: 'car' });
    await realm.as('mark').post('/users/me/status', { status_text: 'here' });
    await realm.as('mark').post('/users/me/status', { status_text: '' });
    const { body } = await realm.as('olivia').post('/register', { fetch_event_types: ['user_status'] });
    expect(body.user_status).toEqual({ [String(IDS.mia)]: { status_text: 'on vacation', ...car } });
  });
});
