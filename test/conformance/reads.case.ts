import { expect, it } from 'vitest';
import { caseSuite, IDS } from './harness.ts';
import { expectedMember } from '../support/test-scenario.ts';

const names = (list: { name: string }[]) => list.map((c) => c.name);

export const usersCases = caseSuite('users and server settings', (api) => {
  it('lists every realm user by id', async () => {
    const { status, body } = await api.as('mark').get('/users');
    expect(status).toBe(200);
    expect(body.members.map((u: { user_id: number }) => u.user_id)).toEqual([8, 9, 10, 11, 12, 13, 14]);
    expect(body.members[0]).toMatchObject({ user_id: IDS.olivia, full_name: 'Olivia Owner', role: 100, is_owner: true });
  });

  it('returns the caller’s own user with the newest received message id, naming a bot type only for bots', async () => {
    const { status, body } = await api.as('mark').get('/users/me');
    expect(status).toBe(200);
    const { bot_type: _humansHaveNone, ...member } = expectedMember({
      user_id: IDS.mark,
      email: 'mark@zulip.test',
      full_name: 'Mark Member',
      date_joined: expect.any(String),
      avatar_url: expect.stringMatching(new RegExp(`^/api/v1/avatar/${IDS.mark}\\?v=1&k=[a-z2-7]{24}$`)),
    });
    expect(body).toEqual({ result: 'success', msg: '', ...member, max_message_id: 4 });
    expect((await api.as('bot').get('/users/me')).body).toMatchObject({ user_id: IDS.bot, is_bot: true, bot_type: 1 });
  });

  it('returns one user by id, bots with their owner, and refuses unknown ids', async () => {
    const bot = await api.as('mia').get(`/users/${IDS.bot}`);
    expect(bot.body.user).toMatchObject({ user_id: IDS.bot, is_bot: true, bot_type: 1, bot_owner_id: IDS.mark, email: 'bot@zulip.test' });
    const unknown = await api.as('mark').get('/users/999');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ result: 'error', msg: 'No such user', code: 'BAD_REQUEST' });
  });

  it('describes the server and realm without credentials', async () => {
    const { status, body } = await api.anonymous().get('/server_settings');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      result: 'success',
      authentication_methods: { password: true, email: true, ldap: false, google: false },
      service_feature_level: 417,
      zulip_feature_level: 417,
      zulip_version: '11.0-offline-realm',
      realm_url: 'http://zulip.test',
      realm_name: 'Test Realm',
      realm_description: '',
      push_notifications_enabled: false,
    });
  });

  it('serves an SVG avatar with the initials at its avatar_url without credentials, and not by id alone', async () => {
    expect((await api.anonymous().get(`/avatar/${IDS.mark}`, { v: '1' })).status).toBe(401);
    const url = new URL((await api.as('mark').get('/users/me')).body.avatar_url, 'http://host');
    const avatar = await api.anonymous().get(url.pathname.replace('/api/v1', ''), Object.fromEntries(url.searchParams));
    expect(avatar.status).toBe(200);
    expect(avatar.headers['content-type']).toBe('image/svg+xml');
    expect(avatar.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(avatar.text).toContain('>MM</text>');
  });
});

export const channelsCases = caseSuite('subscriptions and channels', (api) => {
  it('lists the caller’s subscriptions', async () => {
    const { status, body } = await api.as('mia').get('/users/me/subscriptions');
    expect(status).toBe(200);
    expect(names(body.subscriptions)).toEqual(['general']);
    expect(body.subscriptions[0]).toMatchObject({ stream_id: IDS.general, color: '#76ce90', is_muted: false, subscriber_count: 7, folder_id: 1 });
    const withSubscribers = await api.as('mark').get('/users/me/subscriptions', { include_subscribers: true });
    expect(withSubscribers.body.subscriptions.find((s: { name: string }) => s.name === 'design').subscribers).toEqual([IDS.olivia, IDS.mark]);
  });

  it('lists the channels each caller may know', async () => {
    expect(names((await api.as('mia').get('/streams')).body.streams)).toEqual(['announce', 'design', 'general', 'strict']);
    expect(names((await api.as('mark').get('/streams')).body.streams)).toEqual(['announce', 'design', 'general', 'secret', 'strict']);
    expect(names((await api.as('gail').get('/streams')).body.streams)).toEqual(['general']);
    expect(names((await api.as('mia').get('/streams', { include_public: false })).body.streams)).toEqual(['general']);
  });

  it('keeps include_all for administrators', async () => {
    const refused = await api.as('mark').get('/streams', { include_all: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ result: 'error', msg: 'User not authorized for this query', code: 'BAD_REQUEST' });
    expect(names((await api.as('adam').get('/streams', { include_all: true })).body.streams)).toEqual(['announce', 'design', 'general', 'secret', 'strict']);
  });

  it('returns one visible channel and refuses hidden, unknown and malformed ids', async () => {
    const design = await api.as('mia').get(`/streams/${IDS.design}`);
    expect(design.body.stream).toMatchObject({ stream_id: IDS.design, name: 'design', description: 'Design talk', invite_only: false, subscriber_count: 2 });
    const invalid = { result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' };
    expect((await api.as('mia').get(`/streams/${IDS.secret}`)).body).toEqual(invalid);
    expect((await api.as('mark').get('/streams/99')).body).toEqual(invalid);
    expect((await api.as('mark').get('/streams/abc')).body).toEqual({ result: 'error', msg: 'Invalid stream_id', code: 'BAD_REQUEST' });
  });
});
