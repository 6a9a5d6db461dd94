import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';
import { expectedMember } from '../support/test-scenario.ts';
import { expectRefused } from '../support/expect-refused.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const SUBSCRIPTION_KEYS = [
  'audible_notifications', 'can_add_subscribers_group', 'can_administer_channel_group', 'can_delete_any_message_group',
  'can_delete_own_message_group', 'can_move_messages_out_of_channel_group', 'can_move_messages_within_channel_group',
  'can_remove_subscribers_group', 'can_send_message_group', 'color', 'creator_id', 'date_created', 'description',
  'desktop_notifications', 'email_notifications', 'first_message_id', 'folder_id', 'history_public_to_subscribers',
  'in_home_view', 'invite_only', 'is_announcement_only', 'is_archived', 'is_muted', 'is_recently_active', 'is_web_public',
  'message_retention_days', 'name', 'pin_to_top', 'push_notifications', 'rendered_description', 'stream_id',
  'stream_post_policy', 'stream_weekly_traffic', 'subscriber_count', 'topics_policy', 'wildcard_mentions_notify',
].sort();

describe('POST /register', () => {
  test('a member gets a queue, the version facts and the limits', async () => {
    const { status, body } = await realm.as('mark').post('/register', { fetch_event_types: [] });
    expect(status).toBe(200);
    expect(body.queue_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body).toMatchObject({
      result: 'success',
      msg: '',
      last_event_id: -1,
      service_feature_level: 417,
      service_version: '11.0-offline-realm',
      service_merge_base: '11.0-offline-realm',
      max_message_length: 10000,
      max_topic_length: 60,
      max_stream_name_length: 60,
      max_stream_description_length: 1024,
      max_channel_folder_name_length: 60,
      max_channel_folder_description_length: 1024,
      max_reminder_note_length: 1000,
      max_bulk_new_subscription_messages: 100,
      realm_empty_topic_display_name: 'general chat',
      event_queue_longpoll_timeout_seconds: 90,
    });
    expect(body).not.toHaveProperty('realm_users');
    expect(body).not.toHaveProperty('subscriptions');
    expect(realm.engine.queues.size).toBe(1);
  });

  test('fetch_event_types picks the sections and falls back to event_types', async () => {
    const fetched = await realm.as('mark').post('/register', { event_types: ['message'], fetch_event_types: ['realm'] });
    expect(fetched.body.realm_name).toBe('Test Realm');
    expect(fetched.body).not.toHaveProperty('max_message_id');

    const fallback = await realm.as('mark').post('/register', { event_types: ['message'] });
    expect(fallback.body.max_message_id).toBe(4);
    expect(fallback.body).not.toHaveProperty('realm_name');
    expect(fallback.body).not.toHaveProperty('unread_msgs');
  });

  test('without either list every section is sent', async () => {
    const { body } = await realm.as('mark').post('/register');
    for (const key of ['realm_name', 'realm_users', 'subscriptions', 'streams', 'unread_msgs', 'recent_private_conversations', 'navigation_views', 'saved_snippets', 'realm_user_groups', 'user_settings', 'realm_linkifiers', 'realm_emoji', 'custom_profile_fields', 'user_topics', 'realm_default_streams', 'channel_folders', 'max_message_id']) {
      expect(body, key).toHaveProperty(key);
    }
    expect(body.navigation_views).toEqual([]);
    expect(body.saved_snippets).toEqual([]);
    expect(body.realm_default_streams).toEqual([IDS.general]);
    expect(body.channel_folders).toEqual([
      { id: 1, name: 'Work', description: 'Work channels', rendered_description: '<p>Work channels</p>', order: 0, date_created: expect.any(Number), creator_id: null, is_archived: false },
    ]);
  });

  test('the realm section carries the settings from the realm row', async () => {
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['realm'] });
    expect(body).toMatchObject({
      realm_name: 'Test Realm',
      realm_description: '',
      realm_url: 'http://zulip.test',
      realm_topics_policy: 'allow_empty_topic',
      realm_mandatory_topics: false,
      realm_allow_message_editing: true,
      realm_message_content_edit_limit_seconds: 600,
      realm_can_create_public_channel_group: 6,
    });
  });

  test('realm_users lists active users by id, with the system bots apart', async () => {
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['realm_user'] });
    expect(body.realm_users.map((u: { user_id: number }) => u.user_id)).toEqual([8, 9, 10, 11, 12, 13, 14]);
    expect(body.cross_realm_bots.map((u: { user_id: number }) => u.user_id)).toEqual([1, 2]);
    expect(body.cross_realm_bots[0]).toMatchObject({ is_bot: true, is_system_bot: true, full_name: 'Notification Bot' });
    expect(body.realm_non_active_users).toEqual([]);
    expect(body.realm_users[3]).toEqual({
      ...expectedMember({
        user_id: IDS.mark,
        email: 'mark@zulip.test',
        full_name: 'Mark Member',
        date_joined: '2026-01-01T12:00+00:00',
        avatar_url: expect.stringMatching(new RegExp(`^/api/v1/avatar/${IDS.mark}\\?v=1&k=[a-z2-7]{24}$`)),
      }),
    });
    const bot = body.realm_users.find((u: { user_id: number }) => u.user_id === IDS.bot);
    expect(bot).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: IDS.mark });
    expect(bot).not.toHaveProperty('profile_data');
    expect(body).toMatchObject({
      user_id: IDS.mark,
      email: 'mark@zulip.test',
      delivery_email: 'mark@zulip.test',
      full_name: 'Mark Member',
      is_admin: false,
      is_owner: false,
      is_moderator: false,
      is_guest: false,
      can_create_public_streams: true,
      can_create_web_public_streams: false,
    });
  });

  test('deactivated users are listed apart and lose avatar_url for clients that can do without it', async () => {
    expect((await realm.as('adam').delete(`/users/${IDS.mia}`)).status).toBe(200);
    const { body } = await realm.as('mark').post('/register', {
      fetch_event_types: ['realm_user'],
      client_capabilities: { user_avatar_url_field_optional: true },
    });
    expect(body.realm_non_active_users.map((u: { user_id: number }) => u.user_id)).toEqual([IDS.mia]);
    expect(body.realm_non_active_users[0]).not.toHaveProperty('avatar_url');
    expect(body.realm_users[0].avatar_url).toMatch(new RegExp(`^/api/v1/avatar/${IDS.olivia}\\?v=1&k=[a-z2-7]{24}$`));
  });

  test('subscriptions carry every field, with notification settings as booleans for old clients', async () => {
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['subscription'] });
    expect(body.subscriptions.map((s: { name: string }) => s.name)).toEqual(['general', 'design', 'secret', 'announce', 'strict']);
    const announce = body.subscriptions[3];
    expect(Object.keys(announce).sort()).toEqual(SUBSCRIPTION_KEYS);
    expect(announce).toMatchObject({
      stream_id: IDS.announce,
      stream_post_policy: 2,
      is_announcement_only: true,
      can_send_message_group: 3,
      is_muted: false,
      in_home_view: true,
      desktop_notifications: false,
      audible_notifications: false,
      push_notifications: false,
      email_notifications: false,
      wildcard_mentions_notify: true,
      subscriber_count: 3,
      stream_weekly_traffic: null,
      folder_id: null,
      topics_policy: 'inherit',
    });
    expect(body.unsubscribed).toEqual([]);
    expect(body.never_subscribed).toEqual([]);
  });

  test('notification_settings_null keeps inherited notification settings null', async () => {
    const { body } = await realm.as('mark').post('/register', {
      fetch_event_types: ['subscription'],
      client_capabilities: { notification_settings_null: true },
    });
    expect(body.subscriptions[0]).toMatchObject({
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
    });
  });

  test('include_subscribers adds the subscriber lists, and partial sends them in full for small channels', async () => {
    const all = await realm.as('mia').post('/register', { fetch_event_types: ['subscription'], include_subscribers: true });
    expect(all.body.subscriptions[0].subscribers).toEqual([8, 9, 10, 11, 12, 13, 14]);
    const design = all.body.never_subscribed.find((s: { name: string }) => s.name === 'design');
    expect(design.subscribers).toEqual([IDS.olivia, IDS.mark]);
    // A member never sees a private channel it is not in.
    expect(all.body.never_subscribed.map((s: { name: string }) => s.name)).toEqual(['design', 'announce', 'strict']);

    const partial = await realm.as('mia').post('/register', { fetch_event_types: ['subscription'], include_subscribers: 'partial' });
    expect(partial.body.subscriptions[0].subscribers).toEqual([8, 9, 10, 11, 12, 13, 14]);
    const none = await realm.as('mia').post('/register', { fetch_event_types: ['subscription'] });
    expect(none.body.subscriptions[0]).not.toHaveProperty('subscribers');
  });

  test('a former subscription is listed as unsubscribed with its settings', async () => {
    const muted = await realm.as('mark').post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: IDS.design, property: 'is_muted', value: true }],
    });
    expect(muted.status).toBe(200);
    expect((await realm.as('mark').delete('/users/me/subscriptions', { subscriptions: ['design'] })).status).toBe(200);
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['subscription'] });
    expect(body.subscriptions.map((s: { name: string }) => s.name)).not.toContain('design');
    expect(body.unsubscribed).toHaveLength(1);
    expect(body.unsubscribed[0]).toMatchObject({ name: 'design', is_muted: true, in_home_view: false });
  });

  test('streams lists the channels the user may know: members see public ones, admins every one, guests their own', async () => {
    const names = async (user: 'mia' | 'adam' | 'gail') =>
      (await realm.as(user).post('/register', { fetch_event_types: ['stream'] })).body.streams.map((s: { name: string }) => s.name);
    expect(await names('mia')).toEqual(['general', 'design', 'announce', 'strict']);
    expect(await names('adam')).toEqual(['general', 'design', 'secret', 'announce', 'strict']);
    expect(await names('gail')).toEqual(['general']);
  });

  test('unread_msgs describes unread direct and channel messages, mentions included', async () => {
    await realm.as('olivia').post('/messages', { type: 'direct', to: [IDS.mark], content: 'are you there?' });
    await realm.as('olivia').post('/messages', { type: 'direct', to: [IDS.mark, IDS.mia], content: 'group hello' });
    const sent = await realm.as('olivia').post('/messages', { type: 'channel', to: 'general', topic: 'news', content: 'hi @**Mark Member**' });
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
    expect(body.max_message_id).toBe(sent.body.id);
    expect(body.unread_msgs).toEqual({
      count: 3,
      pms: [{ other_user_id: IDS.olivia, sender_id: IDS.olivia, unread_message_ids: [5] }],
      huddles: [{ user_ids_string: `${IDS.olivia},${IDS.mark},${IDS.mia}`, unread_message_ids: [6] }],
      streams: [{ stream_id: IDS.general, topic: 'news', unread_message_ids: [7] }],
      mentions: [7],
      old_unreads_missing: false,
    });
  });

  test('a muted channel keeps its unread messages listed but out of the count', async () => {
    await realm.as('olivia').post('/messages', { type: 'channel', to: 'general', topic: 'news', content: 'quiet' });
    const muted = await realm.as('mark').post('/users/me/subscriptions/properties', {
      subscription_data: [{ stream_id: IDS.general, property: 'is_muted', value: true }],
    });
    expect(muted.status).toBe(200);
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
    expect(body.unread_msgs.count).toBe(0);
    expect(body.unread_msgs.streams).toEqual([{ stream_id: IDS.general, topic: 'news', unread_message_ids: [5] }]);
  });

  test('recent_private_conversations lists conversations newest first, without the user itself', async () => {
    await realm.as('mark').post('/messages', { type: 'direct', to: [IDS.mia], content: 'one' });
    await realm.as('mark').post('/messages', { type: 'direct', to: [IDS.mark], content: 'note to self' });
    await realm.as('olivia').post('/messages', { type: 'direct', to: [IDS.mark], content: 'latest' });
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['recent_private_conversations'] });
    expect(body.recent_private_conversations).toEqual([
      { max_message_id: 7, user_ids: [IDS.olivia] },
      { max_message_id: 6, user_ids: [] },
      { max_message_id: 5, user_ids: [IDS.mia] },
    ]);
  });

  test('user_settings comes as an object, and old clients also get the flattened legacy keys', async () => {
    const modern = await realm.as('mark').post('/register', {
      fetch_event_types: ['user_settings', 'update_display_settings', 'update_global_notifications'],
      client_capabilities: { user_settings_object: true },
    });
    expect(modern.body.user_settings).toMatchObject({ enter_sends: false, emojiset: 'google', email_address_visibility: 1, timezone: '' });
    expect(modern.body).not.toHaveProperty('enter_sends');

    const legacy = await realm.as('mark').post('/register', {
      fetch_event_types: ['update_display_settings', 'update_global_notifications'],
    });
    expect(legacy.body).toMatchObject({ enter_sends: false, emojiset: 'google', enable_sounds: true, notification_sound: 'zulip' });
    expect(legacy.body).not.toHaveProperty('user_settings');
  });

  test('linkifiers are sent only to clients that read URL templates', async () => {
    const added = await realm.as('adam').post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.test/{id}' });
    expect(added.body).toEqual({ result: 'success', msg: '', id: 1 });
    const old = await realm.as('mark').post('/register', { fetch_event_types: ['realm_linkifiers'] });
    expect(old.body.realm_linkifiers).toEqual([]);
    const modern = await realm.as('mark').post('/register', {
      fetch_event_types: ['realm_linkifiers'],
      client_capabilities: { linkifier_url_template: true },
    });
    expect(modern.body.realm_linkifiers).toEqual([{ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.test/{id}' }]);
  });

  test('realm_user_groups nests the role groups', async () => {
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: ['realm_user_groups'] });
    const admins = body.realm_user_groups.find((g: { name: string }) => g.name === 'role:administrators');
    expect(admins).toMatchObject({ id: 3, members: [IDS.adam], direct_subgroup_ids: [2], is_system_group: true, deactivated: false });
    const everyone = body.realm_user_groups.find((g: { name: string }) => g.name === 'role:everyone');
    expect(everyone).toMatchObject({ members: [IDS.gail], direct_subgroup_ids: [6] });
  });

  test('guests may not ask for every public channel', async () => {
    const { status, body } = await realm.as('gail').post('/register', { all_public_streams: true });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'User not authorized for this query', code: 'BAD_REQUEST' });
    expect(realm.engine.queues.size).toBe(0);
  });

  test('a narrow with an unsupported operator or operand is refused and creates no queue', async () => {
    const operator = await realm.as('mark').post('/register', { narrow: [['search', 'hello']] });
    expect(operator.status).toBe(400);
    expect(operator.body).toEqual({ result: 'error', msg: 'Operator search not supported.', code: 'BAD_REQUEST' });
    const operand = await realm.as('mark').post('/register', { narrow: [['is', 'followed']] });
    expect(operand.body).toEqual({ result: 'error', msg: 'Operand followed not supported.', code: 'BAD_REQUEST' });
    const shape = await realm.as('mark').post('/register', { narrow: [['channel']] });
    expect(shape.body).toEqual({ result: 'error', msg: 'Invalid narrow[0]', code: 'BAD_REQUEST' });
    expect(realm.engine.queues.size).toBe(0);
  });

  test('malformed parameters get upstream-style errors', async () => {
    const bad = async (params: Record<string, unknown>) => (await realm.as('mark').post('/register', params)).body.msg;
    expect(await bad({ apply_markdown: 'yes' })).toBe('apply_markdown is not valid JSON');
    expect(await bad({ event_types: '"message"' })).toBe('event_types is not a list');
    expect(await bad({ include_subscribers: 'sometimes' })).toBe('Invalid include_subscribers');
    expect(await bad({ client_capabilities: { bulk_message_deletion: 'yes' } })).toBe('client_capabilities["bulk_message_deletion"] is not a boolean');
  });

  test("the server's video call providers, GIPHY ratings and plan facts are upstream's tables and values", async () => {
    const started = realm.engine.nowSeconds();
    realm.clock.advance(60_000);
    const { body } = await realm.as('adam').post('/register', { fetch_event_types: ['realm'] });
    expect(body).toMatchObject({
      realm_video_chat_provider: 0,
      realm_available_video_chat_providers: {
        disabled: { name: 'None', id: 0 },
        jitsi_meet: { name: 'Jitsi Meet', id: 1 },
        big_blue_button: { name: 'BigBlueButton', id: 4 },
      },
      realm_giphy_rating: 0,
      zulip_plan_is_not_limited: true,
      upgrade_text_for_wide_organization_logo: 'Available on Zulip Cloud Standard. Upgrade to access.',
      // When the engine started, not when the queue was registered.
      server_generation: started,
    });
    expect(Object.entries(body.giphy_rating_options).map(([key, option]) => [key, (option as { id: number }).id])).toEqual([
      ['disabled', 0], ['y', 1], ['g', 2], ['pg', 3], ['pg-13', 4], ['r', 5],
    ]);
  });

  test('sections for services a sandbox has none of are present and empty', async () => {
    const types = ['stop_words', 'realm_embedded_bots', 'realm_incoming_webhook_bots', 'video_calls', 'giphy'];
    const { body } = await realm.as('mark').post('/register', { fetch_event_types: types });
    expect(body).toMatchObject({ stop_words: [], realm_embedded_bots: [], realm_incoming_webhook_bots: [], has_zoom_token: false, giphy_api_key: '' });
    const none = await realm.as('mark').post('/register', { fetch_event_types: [] });
    for (const key of ['stop_words', 'realm_embedded_bots', 'realm_incoming_webhook_bots', 'has_zoom_token', 'giphy_api_key']) expect(none.body).not.toHaveProperty(key);
  });

  test('unknown client capabilities are ignored', async () => {
    const { status, body } = await realm.as('mark').post('/register', { fetch_event_types: [], client_capabilities: { individual_emoji_changes: true } });
    expect(status).toBe(200);
    const plain = await realm.as('mark').post('/register', { fetch_event_types: [] });
    expect({ ...body, queue_id: 'q' }).toEqual({ ...plain.body, queue_id: 'q' });
  });
});

describe('POST /register without credentials', () => {
  /** Upstream lets spectators register only where they may read: access on, and a web-public channel. */
  async function admitSpectators(): Promise<void> {
    await realm.as('olivia').patch('/realm', { enable_spectator_access: true });
    await realm.as('olivia').patch(`/streams/${IDS.general}`, { is_web_public: true });
  }
  const notLoggedIn = { result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' };

  test('is refused, without the user directory, where spectators are not let in', async () => {
    await expectRefused(realm, () => realm.anonymous().post('/register', { client_gravatar: false }), notLoggedIn, 401);
    await realm.as('olivia').patch('/realm', { enable_spectator_access: true });
    // Spectator access with no web-public channel to read still lets no one in.
    await expectRefused(realm, () => realm.anonymous().post('/register', { client_gravatar: false }), notLoggedIn, 401);
    const response = await realm.engine.handle(new Request('http://zulip.test/api/v1/register', { method: 'POST' }));
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
  });

  test('gives public realm data and no queue', async () => {
    await admitSpectators();
    const { status, body } = await realm.anonymous().post('/register', { client_gravatar: false });
    expect(status).toBe(200);
    expect(body.queue_id).toBeNull();
    expect(body.realm_name).toBe('Test Realm');
    // The web-public channel only, as spectators see it.
    expect(body.subscriptions.map((s: { stream_id: number }) => s.stream_id)).toEqual([IDS.general]);
    expect(body.streams.map((s: { stream_id: number }) => s.stream_id)).toEqual([IDS.general]);
    expect(body.max_message_id).toBe(-1);
    expect(body.recent_private_conversations).toEqual([]);
    expect(body).not.toHaveProperty('user_id');
    expect(body.realm_users[3]).not.toHaveProperty('timezone');
    expect(body.realm_users[3].date_joined).toBe('2026-01-01');
    expect(realm.engine.queues.size).toBe(0);
  });

  test('refuses client_gravatar and include_subscribers', async () => {
    await admitSpectators();
    const gravatar = await realm.anonymous().post('/register', { client_gravatar: true });
    expect(gravatar.status).toBe(400);
    expect(gravatar.body).toEqual({ result: 'error', msg: "Invalid 'client_gravatar' parameter for anonymous request", code: 'BAD_REQUEST' });
    const subscribers = await realm.anonymous().post('/register', { client_gravatar: false, include_subscribers: true });
    expect(subscribers.body).toEqual({ result: 'error', msg: "Invalid 'include_subscribers' parameter for anonymous request", code: 'BAD_REQUEST' });
  });
});

describe('POST /register: realm settings the realm row may override', () => {
  const fetchInvites = async (user: 'mark' | 'mona' | 'adam' | 'gail') =>
    (await realm.as(user).post('/register', { fetch_event_types: ['realm', 'realm_user'] })).body;

  test('members may invite by default, guests may not', async () => {
    expect(await fetchInvites('mark')).toMatchObject({ realm_can_invite_users_group: 6, can_invite_others_to_realm: true });
    expect(await fetchInvites('gail')).toMatchObject({ realm_can_invite_users_group: 6, can_invite_others_to_realm: false });
  });

  test("the realm's can_invite_users_group decides who may invite", async () => {
    await realm.as('olivia').patch('/realm', { can_invite_users_group: { new: 3 } });
    expect(await fetchInvites('adam')).toMatchObject({ realm_can_invite_users_group: 3, can_invite_others_to_realm: true });
    expect(await fetchInvites('mark')).toMatchObject({ realm_can_invite_users_group: 3, can_invite_others_to_realm: false });
  });

  test('an anonymous group setting is reported as is and honoured', async () => {
    const setting = { direct_members: [IDS.mona], direct_subgroups: [3] };
    await realm.as('olivia').patch('/realm', { can_invite_users_group: { new: setting } });
    expect(await fetchInvites('mona')).toMatchObject({ realm_can_invite_users_group: setting, can_invite_others_to_realm: true });
    expect(await fetchInvites('adam')).toMatchObject({ can_invite_others_to_realm: true });
    expect(await fetchInvites('mark')).toMatchObject({ can_invite_others_to_realm: false });
  });

  test('server_web_public_streams_enabled follows enable_spectator_access', async () => {
    const fetchRealm = async () => (await realm.as('mark').post('/register', { fetch_event_types: ['realm'] })).body;
    expect(await fetchRealm()).toMatchObject({ server_web_public_streams_enabled: false, realm_enable_spectator_access: false });
    await realm.as('olivia').patch('/realm', { enable_spectator_access: true });
    expect(await fetchRealm()).toMatchObject({ server_web_public_streams_enabled: true, realm_enable_spectator_access: true });
  });
});
