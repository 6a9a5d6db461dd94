import { expect, it } from 'vitest';
import { caseSuite, IDS } from './harness.ts';

export const registerCases = caseSuite('POST /register', (api) => {
  it('gives a member a queue, the version facts and the limits', async () => {
    const { status, body } = await api.as('mark').post('/register', { fetch_event_types: [] });
    expect(status).toBe(200);
    expect(body.queue_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body).toMatchObject({
      result: 'success',
      msg: '',
      last_event_id: -1,
      service_feature_level: 417,
      service_version: '11.0-offline-realm',
      // Upstream's names too: real clients read these.
      zulip_feature_level: 417,
      zulip_version: '11.0-offline-realm',
      zulip_merge_base: '11.0-offline-realm',
      max_message_length: 10000,
      max_topic_length: 60,
      realm_empty_topic_display_name: 'general chat',
      event_queue_longpoll_timeout_seconds: 90,
    });
    expect(body).not.toHaveProperty('realm_users');
    // The spec's and upstream's names only: no version of upstream sends max_channel_*_length.
    expect(body).not.toHaveProperty('max_channel_name_length');
    expect(body).not.toHaveProperty('max_channel_description_length');
  });

  it('lists the bots the caller may administer: every bot for an administrator, its own for an owner, none otherwise', async () => {
    const bots = async (user: 'olivia' | 'mark' | 'mia') =>
      (await api.as(user).post('/register', { fetch_event_types: ['realm_bot'] })).body.realm_bots;
    const testBot = {
      user_id: IDS.bot,
      full_name: 'Test Bot',
      api_key: 'BotKey00000000000000000000000007',
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      avatar_url: expect.stringMatching(new RegExp(`^/api/v1/avatar/${IDS.bot}\\?v=1&k=`)),
      owner_id: IDS.mark,
      services: [],
      email: 'bot@zulip.test',
      bot_type: 1,
      is_active: true,
    };
    expect(await bots('olivia')).toEqual([testBot]);
    expect(await bots('mark')).toEqual([testBot]);
    expect(await bots('mia')).toEqual([]);
  });

  it('sends every section without fetch_event_types, and only the asked ones with it', async () => {
    const all = await api.as('mark').post('/register');
    for (const key of ['realm_name', 'realm_users', 'subscriptions', 'streams', 'unread_msgs', 'recent_private_conversations', 'realm_user_groups', 'user_settings', 'realm_emoji', 'max_message_id']) {
      expect(all.body, key).toHaveProperty(key);
    }
    const realmOnly = await api.as('mark').post('/register', { event_types: ['message'], fetch_event_types: ['realm'] });
    expect(realmOnly.body).toMatchObject({ realm_name: 'Test Realm', realm_url: 'http://zulip.test', realm_topics_policy: 'allow_empty_topic' });
    expect(realmOnly.body).not.toHaveProperty('max_message_id');
  });

  it('lists the realm users and each user’s subscriptions and known channels', async () => {
    const { body } = await api.as('mark').post('/register', { fetch_event_types: ['realm_user', 'subscription', 'stream'] });
    expect(body.realm_users.map((u: { user_id: number }) => u.user_id)).toEqual([8, 9, 10, 11, 12, 13, 14]);
    expect(body.realm_users.find((u: { user_id: number }) => u.user_id === IDS.bot)).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: IDS.mark });
    expect(body.subscriptions.map((s: { name: string }) => s.name)).toEqual(['general', 'design', 'secret', 'announce', 'strict']);
    const names = async (user: 'mia' | 'adam' | 'gail') =>
      (await api.as(user).post('/register', { fetch_event_types: ['stream'] })).body.streams.map((s: { name: string }) => s.name);
    expect(await names('mia')).toEqual(['general', 'design', 'announce', 'strict']);
    expect(await names('adam')).toEqual(['general', 'design', 'secret', 'announce', 'strict']);
    expect(await names('gail')).toEqual(['general']);
  });

  it('describes unread direct, group and channel messages with mentions, and the newest id', async () => {
    const dm = await api.as('olivia').post('/messages', { type: 'direct', to: [IDS.mona], content: 'are you there?' });
    const group = await api.as('olivia').post('/messages', { type: 'direct', to: [IDS.mona, IDS.mia], content: 'group hello' });
    const mention = await api.as('olivia').post('/messages', { type: 'channel', to: 'general', topic: 'unread news', content: 'hi @**Mona Moderator**' });
    const { body } = await api.as('mona').post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
    expect(body.max_message_id).toBe(mention.body.id);
    expect(body.unread_msgs).toEqual({
      count: 3,
      pms: [{ other_user_id: IDS.olivia, sender_id: IDS.olivia, unread_message_ids: [dm.body.id] }],
      huddles: [{ user_ids_string: `${IDS.olivia},${IDS.mona},${IDS.mia}`, unread_message_ids: [group.body.id] }],
      streams: [{ stream_id: IDS.general, topic: 'unread news', unread_message_ids: [mention.body.id] }],
      mentions: [mention.body.id],
      old_unreads_missing: false,
    });
  });

  it('refuses unsupported narrows and malformed parameters', async () => {
    expect((await api.as('mark').post('/register', { narrow: [['search', 'hello']] })).body).toEqual({ result: 'error', msg: 'Operator search not supported.', code: 'BAD_REQUEST' });
    expect((await api.as('mark').post('/register', { narrow: [['channel']] })).body).toEqual({ result: 'error', msg: 'Invalid narrow[0]', code: 'BAD_REQUEST' });
    expect((await api.as('mark').post('/register', { apply_markdown: 'yes' })).body.msg).toBe('apply_markdown is not valid JSON');
    expect((await api.as('mark').post('/register', { event_types: '"message"' })).body.msg).toBe('event_types is not a list');
    expect((await api.as('gail').post('/register', { all_public_streams: true })).body).toEqual({ result: 'error', msg: 'User not authorized for this query', code: 'BAD_REQUEST' });
  });

  it('refuses an anonymous caller where spectators are not let in', async () => {
    const { status, body } = await api.anonymous().post('/register', { client_gravatar: false });
    expect(status).toBe(401);
    expect(body).toEqual({ result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' });
  });
});
