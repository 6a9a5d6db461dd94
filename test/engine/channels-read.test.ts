import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTestRealm, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const names = (list: { name: string }[]) => list.map((c) => c.name);

describe('GET /users/me/subscriptions', () => {
  test('lists the caller\u2019s subscriptions with inherited notification settings as null', async () => {
    const { status, body } = await realm.as('mia').get('/users/me/subscriptions');
    expect(status).toBe(200);
    expect(names(body.subscriptions)).toEqual(['general']);
    expect(body.subscriptions[0]).toMatchObject({
      stream_id: IDS.general,
      color: '#76ce90',
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: null,
      wildcard_mentions_notify: null,
      subscriber_count: 7,
      folder_id: 1,
    });
    expect(body.subscriptions[0]).not.toHaveProperty('subscribers');
  });

  test('include_subscribers adds who is subscribed', async () => {
    const { body } = await realm.as('mark').get('/users/me/subscriptions', { include_subscribers: true });
    const design = body.subscriptions.find((s: { name: string }) => s.name === 'design');
    expect(design.subscribers).toEqual([IDS.olivia, IDS.mark]);
  });

  test('a bad include_subscribers is refused', async () => {
    const { status, body } = await realm.as('mark').get('/users/me/subscriptions', { include_subscribers: 'yes' });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'include_subscribers is not valid JSON', code: 'BAD_REQUEST' });
  });
});

describe('GET /streams', () => {
  test('by default a member gets public and subscribed channels, sorted by name', async () => {
    const { status, body } = await realm.as('mia').get('/streams');
    expect(status).toBe(200);
    expect(names(body.streams)).toEqual(['announce', 'design', 'general', 'strict']);
    expect(body.streams[0]).toMatchObject({ stream_id: IDS.announce, stream_post_policy: 2, is_announcement_only: true, invite_only: false });
    expect(body.streams[0]).not.toHaveProperty('is_default');
    expect(body.streams[0]).not.toHaveProperty('color');
  });

  test('a subscriber also gets its private channels', async () => {
    const { body } = await realm.as('mark').get('/streams');
    expect(names(body.streams)).toEqual(['announce', 'design', 'general', 'secret', 'strict']);
  });

  test('a guest gets only its own channels', async () => {
    const { body } = await realm.as('gail').get('/streams');
    expect(names(body.streams)).toEqual(['general']);
  });

  test('include_public=false leaves only subscriptions', async () => {
    const { body } = await realm.as('mia').get('/streams', { include_public: false });
    expect(names(body.streams)).toEqual(['general']);
  });

  test('include_default marks the default channels', async () => {
    const { body } = await realm.as('mia').get('/streams', { include_default: true });
    const general = body.streams.find((s: { name: string }) => s.name === 'general');
    const design = body.streams.find((s: { name: string }) => s.name === 'design');
    expect(general.is_default).toBe(true);
    expect(design.is_default).toBe(false);
  });

  test('include_all is for administrators only and then lists every channel', async () => {
    const refused = await realm.as('mark').get('/streams', { include_all: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ result: 'error', msg: 'User not authorized for this query', code: 'BAD_REQUEST' });
    const legacy = await realm.as('adam').get('/streams', { include_all_active: true });
    expect(names(legacy.body.streams)).toEqual(['announce', 'design', 'general', 'secret', 'strict']);
  });

  test('archived channels are left out unless exclude_archived=false', async () => {
    await realm.as('olivia').delete(`/streams/${IDS.design}`);
    const current = await realm.as('mia').get('/streams');
    expect(names(current.body.streams)).not.toContain('design');
    const all = await realm.as('mia').get('/streams', { exclude_archived: false });
    expect(all.body.streams.find((s: { name: string }) => s.name === 'design').is_archived).toBe(true);
  });
});

describe('GET /streams/{stream_id}', () => {
  test('returns a visible channel', async () => {
    const { status, body } = await realm.as('mia').get(`/streams/${IDS.design}`);
    expect(status).toBe(200);
    expect(body.stream).toMatchObject({
      stream_id: IDS.design,
      name: 'design',
      description: 'Design talk',
      invite_only: false,
      history_public_to_subscribers: true,
      first_message_id: null,
      subscriber_count: 2,
      is_recently_active: true,
      stream_weekly_traffic: null,
      can_remove_subscribers_group: 3,
    });
  });

  test('a private channel is "Invalid channel ID" for non-subscribers, but visible to administrators', async () => {
    const hidden = await realm.as('mia').get(`/streams/${IDS.secret}`);
    expect(hidden.status).toBe(400);
    expect(hidden.body).toEqual({ result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' });
    const admin = await realm.as('adam').get(`/streams/${IDS.secret}`);
    expect(admin.body.stream).toMatchObject({ name: 'secret', invite_only: true, history_public_to_subscribers: false });
  });

  test('an unknown or malformed id is refused', async () => {
    const unknown = await realm.as('mark').get('/streams/99');
    expect(unknown.body).toEqual({ result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' });
    const malformed = await realm.as('mark').get('/streams/abc');
    expect(malformed.body).toEqual({ result: 'error', msg: 'Invalid stream_id', code: 'BAD_REQUEST' });
  });

  test('weekly traffic is estimated once a channel is a week old', async () => {
    realm.clock.advance(14 * 86400_000);
    await realm.as('olivia').post('/messages', { type: 'channel', to: 'design', topic: 't', content: 'one' });
    await realm.as('olivia').post('/messages', { type: 'channel', to: 'design', topic: 't', content: 'two' });
    const { body } = await realm.as('mark').get(`/streams/${IDS.design}`);
    expect(body.stream.stream_weekly_traffic).toBe(1);
  });
});
