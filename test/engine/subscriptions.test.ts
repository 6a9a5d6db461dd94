import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestRealm, IDS, subscribe, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const named = (list: { name: string }[], name: string) => list.find((s) => s.name === name) as Record<string, unknown>;

describe('GET /users/me/subscriptions', () => {
  it('lists the caller\u2019s active subscriptions in channel order, every field of 2.5 present', async () => {
    const { status, body } = await realm.as('mark').get('/users/me/subscriptions');
    expect(status).toBe(200);
    expect(body.subscriptions.map((s: { name: string }) => s.name)).toEqual(['general', 'design', 'secret', 'announce', 'strict']);
    expect(named(body.subscriptions, 'secret')).toEqual({
      stream_id: IDS.secret,
      name: 'secret',
      is_archived: false,
      description: 'Private',
      rendered_description: '<p>Private</p>',
      date_created: expect.any(Number),
      creator_id: null,
      invite_only: true,
      is_web_public: false,
      stream_post_policy: 1,
      is_announcement_only: false,
      message_retention_days: null,
      history_public_to_subscribers: false,
      first_message_id: 3,
      folder_id: null,
      topics_policy: 'inherit',
      is_recently_active: true,
      stream_weekly_traffic: null,
      subscriber_count: 2,
      can_add_subscribers_group: 1,
      can_remove_subscribers_group: 3,
      can_administer_channel_group: 1,
      can_send_message_group: 7,
      can_delete_any_message_group: 1,
      can_delete_own_message_group: 1,
      can_move_messages_out_of_channel_group: 1,
      can_move_messages_within_channel_group: 1,
      color: '#a6c7e5',
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
    });
  });

  it('leaves out channels the caller left and archived channels', async () => {
    await realm.as('mark').delete('/users/me/subscriptions', { subscriptions: ['design'] });
    await realm.as('olivia').delete(`/streams/${IDS.strict}`);
    const { body } = await realm.as('mark').get('/users/me/subscriptions');
    expect(body.subscriptions.map((s: { name: string }) => s.name)).toEqual(['general', 'secret', 'announce']);
  });

  it('adds full subscriber lists with include_subscribers true, and for small channels with partial', async () => {
    for (const value of [true, 'partial']) {
      const { body } = await realm.as('mark').get('/users/me/subscriptions', { include_subscribers: value });
      expect(named(body.subscriptions, 'design').subscribers).toEqual([IDS.olivia, IDS.mark]);
      expect(named(body.subscriptions, 'general').subscribers).toEqual([IDS.olivia, IDS.adam, IDS.mona, IDS.mark, IDS.mia, IDS.gail, IDS.bot]);
      expect(named(body.subscriptions, 'general')).not.toHaveProperty('partial_subscribers');
    }
    const none = await realm.as('mark').get('/users/me/subscriptions', { include_subscribers: false });
    expect(named(none.body.subscriptions, 'design')).not.toHaveProperty('subscribers');
  });

  it('leaves deactivated users out of the subscriber lists', async () => {
    await realm.as('mia').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] });
    await realm.as('olivia').delete(`/users/${IDS.mia}`);
    const { body } = await realm.as('mark').get('/users/me/subscriptions', { include_subscribers: true });
    expect(named(body.subscriptions, 'design').subscribers).toEqual([IDS.olivia, IDS.mark]);
    expect(named(body.subscriptions, 'design').subscriber_count).toBe(2);
  });

  it('refuses an include_subscribers that is neither JSON nor partial, or not a boolean', async () => {
    const bad = await realm.as('mark').get('/users/me/subscriptions', { include_subscribers: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(error('include_subscribers is not valid JSON'));
    const number = await realm.as('mark').get('/users/me/subscriptions', { include_subscribers: 1 });
    expect(number.body).toEqual(error('include_subscribers is not a boolean'));
  });

  it('estimates weekly traffic once a channel is a week old and calls a silent channel inactive after 180 days', async () => {
    realm.clock.advance(8 * 86400 * 1000);
    const week = await realm.as('mark').get('/users/me/subscriptions');
    expect(named(week.body.subscriptions, 'general')).toMatchObject({ stream_weekly_traffic: 1, is_recently_active: true });
    expect(named(week.body.subscriptions, 'design')).toMatchObject({ stream_weekly_traffic: 0 });
    realm.clock.advance(200 * 86400 * 1000);
    const later = await realm.as('mark').get('/users/me/subscriptions');
    expect(named(later.body.subscriptions, 'general')).toMatchObject({ stream_weekly_traffic: 0, is_recently_active: false });
  });
});

describe('GET /users/{user_id}/subscriptions/{stream_id}', () => {
  it('tells whether a user is subscribed to a channel the caller can see', async () => {
    const yes = await realm.as('mark').get(`/users/${IDS.mia}/subscriptions/${IDS.general}`);
    expect(yes.status).toBe(200);
    expect(yes.body).toEqual({ result: 'success', msg: '', is_subscribed: true });
    const no = await realm.as('mark').get(`/users/${IDS.mia}/subscriptions/${IDS.design}`);
    expect(no.body).toEqual({ result: 'success', msg: '', is_subscribed: false });
  });

  it('answers about private channels only to those who can see them: subscribers and administrators', async () => {
    expect((await realm.as('mark').get(`/users/${IDS.olivia}/subscriptions/${IDS.secret}`)).body.is_subscribed).toBe(true);
    expect((await realm.as('adam').get(`/users/${IDS.olivia}/subscriptions/${IDS.secret}`)).body.is_subscribed).toBe(true);
    const hidden = await realm.as('mia').get(`/users/${IDS.olivia}/subscriptions/${IDS.secret}`);
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual(error('Invalid channel ID'));
    const guest = await realm.as('gail').get(`/users/${IDS.olivia}/subscriptions/${IDS.design}`);
    expect(guest.body).toEqual(error('Invalid channel ID'));
  });

  it('refuses unknown and archived channels, unknown users, bots and deactivated users', async () => {
    expect((await realm.as('mark').get(`/users/${IDS.mia}/subscriptions/99`)).body).toEqual(error('Invalid channel ID'));
    await realm.as('olivia').delete(`/streams/${IDS.strict}`);
    expect((await realm.as('mark').get(`/users/${IDS.mia}/subscriptions/${IDS.strict}`)).body).toEqual(error('Invalid channel ID'));
    expect((await realm.as('mark').get(`/users/999/subscriptions/${IDS.general}`)).body).toEqual(error('No such user'));
    expect((await realm.as('mark').get(`/users/${IDS.bot}/subscriptions/${IDS.general}`)).body).toEqual(error('No such user'));
    await realm.as('olivia').delete(`/users/${IDS.mia}`);
    const deactivated = await realm.as('mark').get(`/users/${IDS.mia}/subscriptions/${IDS.general}`);
    expect(deactivated.status).toBe(400);
    expect(deactivated.body).toEqual(error('User is deactivated'));
  });

  it('refuses ids that are not numbers', async () => {
    const { status, body } = await realm.as('mark').get(`/users/me/subscriptions/${IDS.general}`);
    expect(status).toBe(400);
    expect(body).toEqual(error('Invalid user_id'));
  });

  it('sees a subscription made behind the API\u2019s back', async () => {
    await subscribe(realm.engine, IDS.mia, IDS.design);
    expect((await realm.as('mark').get(`/users/${IDS.mia}/subscriptions/${IDS.design}`)).body.is_subscribed).toBe(true);
  });
});
