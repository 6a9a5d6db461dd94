import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '../../src/engine/routes/index.ts';
import type { ApiResult, TestClient, TestRealm } from '../support/test-realm.ts';
import { IDS } from '../support/test-realm.ts';
import { type Role, ROLE_USERS, ROLES, RoleRealm } from './support/role-realm.ts';

/**
 * The permission matrix: for each write endpoint, a valid request and the roles that may send
 * it in the test realm (upstream's default realm permissions, spec 4: owners and admins
 * administer, moderators only what a group setting gives them, members create channels, groups
 * and invitations, guests only what concerns their own account and the channels they are in,
 * bots as members except for what only humans do). Every other role must be refused with an
 * error and leave every table and every queue as it was.
 */

const ALL: Role[] = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'];
const HUMANS: Role[] = ['owner', 'admin', 'moderator', 'member', 'guest'];
const MEMBERS: Role[] = ['owner', 'admin', 'moderator', 'member', 'bot'];
const ADMINS: Role[] = ['owner', 'admin'];
const IN_AN_HOUR = Date.UTC(2026, 0, 1, 13) / 1000;

interface MatrixCase {
  /** `METHOD /path` as the router's table names the endpoint. */
  endpoint: string;
  allowed: Role[];
  send(client: TestClient, role: Role): Promise<ApiResult>;
  /**
   * Each caller's success touches only that caller's own rows, so the realm need not be put
   * back between two allowed callers.
   */
  ownRowsOnly?: boolean;
  /** Put in place (through the API) before each caller's request. */
  setup?(realm: TestRealm): Promise<unknown>;
}

const CASES: MatrixCase[] = [
  // Messages.
  { endpoint: 'POST /messages', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/messages', { type: 'stream', to: 'general', topic: 'matrix', content: 'hello' }) },
  { endpoint: 'POST /messages/render', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/messages/render', { content: '**hi**' }) },
  // Only the sender edits content, within the realm's time limit: a message just sent (id 5).
  {
    endpoint: 'PATCH /messages/{message_id}',
    allowed: ['member'],
    setup: (realm) => realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'matrix', content: 'fresh' }),
    send: (c) => c.patch('/messages/5', { content: 'edited' }),
  },
  { endpoint: 'DELETE /messages/{message_id}', allowed: ['owner', 'admin', 'member'], send: (c) => c.delete('/messages/2') },
  { endpoint: 'POST /messages/{message_id}/reactions', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/messages/1/reactions', { emoji_name: 'smile' }) },
  // Everyone who sees a poll votes in it: Olivia's poll in #general (id 5).
  {
    endpoint: 'POST /submessage',
    allowed: ALL,
    setup: (realm) => realm.as('olivia').post('/messages', { type: 'stream', to: 'general', topic: 'matrix', content: '/poll Lunch?\nPizza' }),
    send: (c) => c.post('/submessage', { message_id: 5, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) }),
  },
  { endpoint: 'POST /messages/flags', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/messages/flags', { messages: [1], op: 'add', flag: 'starred' }) },
  { endpoint: 'POST /mark_all_as_read', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/mark_all_as_read') },
  { endpoint: 'POST /mark_stream_as_read', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/mark_stream_as_read', { stream_id: IDS.general }) },
  { endpoint: 'POST /mark_topic_as_read', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/mark_topic_as_read', { stream_id: IDS.general, topic_name: 'welcome' }) },
  {
    endpoint: 'POST /messages/flags/narrow',
    allowed: ALL,
    ownRowsOnly: true,
    send: (c) => c.post('/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 10, narrow: [], op: 'add', flag: 'read' }),
  },
  { endpoint: 'POST /scheduled_messages', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/scheduled_messages', { type: 'stream', to: IDS.general, topic: 'later', content: 'later', scheduled_delivery_timestamp: IN_AN_HOUR }) },
  { endpoint: 'POST /reminders', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/reminders', { message_id: 1, scheduled_delivery_timestamp: IN_AN_HOUR }) },
  { endpoint: 'POST /typing', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/typing', { op: 'start', type: 'stream', stream_id: IDS.general, topic: 'welcome' }) },
  { endpoint: 'POST /streams/{stream_id}/delete_topic', allowed: ADMINS, send: (c) => c.post(`/streams/${IDS.general}/delete_topic`, { topic_name: 'welcome' }) },

  // Channels and subscriptions.
  { endpoint: 'POST /users/me/subscriptions', allowed: MEMBERS, ownRowsOnly: true, send: (c) => c.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] }) },
  { endpoint: 'DELETE /users/me/subscriptions', allowed: ALL, ownRowsOnly: true, send: (c) => c.delete('/users/me/subscriptions', { subscriptions: ['general'] }) },
  { endpoint: 'POST /channels/create', allowed: MEMBERS, send: (c, role) => c.post('/channels/create', { name: `made by ${role}`, subscribers: [] }) },
  {
    endpoint: 'POST /users/me/subscriptions/properties',
    allowed: ALL,
    ownRowsOnly: true,
    send: (c) => c.post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: IDS.general, property: 'pin_to_top', value: true }] }),
  },
  // Upstream's PATCH (unlike DELETE) is for non-guests only (require_non_guest_user).
  { endpoint: 'PATCH /users/me/subscriptions', allowed: MEMBERS, ownRowsOnly: true, send: (c) => c.patch('/users/me/subscriptions', { delete: ['general'] }) },
  { endpoint: 'PATCH /users/me/subscriptions/muted_topics', allowed: ALL, ownRowsOnly: true, send: (c) => c.patch('/users/me/subscriptions/muted_topics', { stream_id: IDS.general, topic: 'welcome', op: 'add' }) },
  { endpoint: 'PATCH /streams/{stream_id}', allowed: ADMINS, send: (c) => c.patch(`/streams/${IDS.design}`, { description: 'changed' }) },
  { endpoint: 'DELETE /streams/{stream_id}', allowed: ADMINS, send: (c) => c.delete(`/streams/${IDS.design}`) },
  { endpoint: 'POST /default_streams', allowed: ADMINS, send: (c) => c.post('/default_streams', { stream_id: IDS.design }) },
  { endpoint: 'DELETE /default_streams', allowed: ADMINS, send: (c) => c.delete('/default_streams', { stream_id: IDS.general }) },
  { endpoint: 'PATCH /channel_folders/{channel_folder_id}', allowed: ADMINS, send: (c) => c.patch('/channel_folders/1', { description: 'changed' }) },
  { endpoint: 'POST /channel_folders/create', allowed: ADMINS, send: (c) => c.post('/channel_folders/create', { name: 'Play', description: '' }) },

  // Users and groups.
  { endpoint: 'POST /users', allowed: ['owner'], send: (c) => c.post('/users', { email: 'newcomer@zulip.test', password: 'newcomer-pass', full_name: 'New Comer' }) },
  { endpoint: 'PATCH /users/{user_id}', allowed: ADMINS, send: (c) => c.patch(`/users/${IDS.mia}`, { full_name: 'Mia Renamed' }) },
  { endpoint: 'DELETE /users/{user_id}', allowed: ADMINS, send: (c) => c.delete(`/users/${IDS.mia}`) },
  {
    endpoint: 'POST /users/{user_id}/reactivate',
    allowed: ADMINS,
    setup: (realm) => realm.as('olivia').delete(`/users/${IDS.mia}`),
    send: (c) => c.post(`/users/${IDS.mia}/reactivate`),
  },
  // The only owner may not leave (upstream: "Cannot deactivate the only organization owner");
  // leaving takes the caller's bots along, so each caller leaves from the scenario's realm.
  { endpoint: 'DELETE /users/me', allowed: ['admin', 'moderator', 'member', 'guest', 'bot'], send: (c) => c.delete('/users/me') },
  // Groups are made by people: a bot is refused as upstream refuses it.
  { endpoint: 'POST /user_groups/create', allowed: ['owner', 'admin', 'moderator', 'member'], send: (c, role) => c.post('/user_groups/create', { name: `group of ${role}`, description: '', members: [IDS.mark] }) },
  { endpoint: 'POST /invites', allowed: ['owner', 'admin', 'moderator', 'member'], send: (c, role) => c.post('/invites', { invitee_emails: `${role}-friend@example.com`, stream_ids: [IDS.general] }) },

  // Reusable invitation links: create_multiuse_invite_group, administrators by default.
  { endpoint: 'POST /invites/multiuse', allowed: ADMINS, send: (c) => c.post('/invites/multiuse', { stream_ids: [IDS.general] }) },
  {
    endpoint: 'DELETE /invites/multiuse/{invite_id}',
    allowed: ADMINS,
    setup: (realm) => realm.as('olivia').post('/invites/multiuse', { stream_ids: [IDS.general] }),
    send: (c) => c.delete('/invites/multiuse/1'),
  },

  // The organization.
  { endpoint: 'PATCH /realm', allowed: ADMINS, send: (c) => c.patch('/realm', { name: 'Renamed Realm' }) },
  { endpoint: 'PATCH /realm/user_settings_defaults', allowed: ADMINS, send: (c) => c.patch('/realm/user_settings_defaults', { enter_sends: true }) },
  { endpoint: 'POST /realm/filters', allowed: ADMINS, send: (c) => c.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' }) },
  {
    endpoint: 'PATCH /realm/filters/{filter_id}',
    allowed: ADMINS,
    setup: (realm) => realm.as('olivia').post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' }),
    send: (c) => c.patch('/realm/filters/1', { pattern: '!(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' }),
  },
  {
    endpoint: 'DELETE /realm/filters/{filter_id}',
    allowed: ADMINS,
    setup: (realm) => realm.as('olivia').post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' }),
    send: (c) => c.delete('/realm/filters/1'),
  },
  {
    endpoint: 'DELETE /realm/playgrounds/{playground_id}',
    allowed: ADMINS,
    setup: (realm) => realm.as('olivia').post('/realm/playgrounds', { name: 'Python', pygments_language: 'Python', url_template: 'https://play.example/?code={code}' }),
    send: (c) => c.delete('/realm/playgrounds/1'),
  },
  { endpoint: 'POST /realm/playgrounds', allowed: ADMINS, send: (c) => c.post('/realm/playgrounds', { name: 'Python', pygments_language: 'Python', url_template: 'https://play.example/?code={code}' }) },
  { endpoint: 'POST /realm/profile_fields', allowed: ADMINS, send: (c) => c.post('/realm/profile_fields', { field_type: 1, name: 'Team' }) },

  // Each caller's own settings and data.
  { endpoint: 'PATCH /settings', allowed: HUMANS, ownRowsOnly: true, send: (c) => c.patch('/settings', { enter_sends: true }) },
  { endpoint: 'POST /users/me/status', allowed: HUMANS, ownRowsOnly: true, send: (c) => c.post('/users/me/status', { status_text: 'away' }) },
  { endpoint: 'POST /users/me/presence', allowed: HUMANS, ownRowsOnly: true, send: (c) => c.post('/users/me/presence', { status: 'active' }) },
  { endpoint: 'POST /users/me/android_gcm_reg_id', allowed: HUMANS, ownRowsOnly: true, send: (c, role) => c.post('/users/me/android_gcm_reg_id', { token: `token-${role}` }) },
  { endpoint: 'POST /users/me/apns_device_token', allowed: HUMANS, ownRowsOnly: true, send: (c, role) => c.post('/users/me/apns_device_token', { token: Buffer.from(role.padEnd(12, '.')).toString('hex'), appid: 'org.zulip.Zulip' }) },
  { endpoint: 'POST /drafts', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/drafts', { drafts: [{ type: 'stream', to: [IDS.general], topic: 'd', content: 'draft' }] }) },
  { endpoint: 'POST /saved_snippets', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/saved_snippets', { title: 'hi', content: 'hello' }) },
  { endpoint: 'POST /navigation_views', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/navigation_views', { fragment: 'recent', is_pinned: true }) },
  { endpoint: 'POST /users/me/alert_words', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/users/me/alert_words', { alert_words: ['urgent'] }) },
  { endpoint: 'POST /users/me/muted_users/{muted_user_id}', allowed: ALL, ownRowsOnly: true, send: (c) => c.post(`/users/me/muted_users/${IDS.mia}`) },
  { endpoint: 'POST /user_topics', allowed: ALL, ownRowsOnly: true, send: (c) => c.post('/user_topics', { stream_id: IDS.general, topic: 'welcome', visibility_policy: 1 }) },
];

/**
 * Write endpoints the matrix leaves out, each with why: no caller at all, or a request that
 * needs state only its own caller can make (their own reaction, draft, queue, upload...),
 * whose rules the endpoint's own tests check.
 */
const NOT_IN_MATRIX: Record<string, string> = {
  'POST /fetch_api_key': 'no caller: a password login',
  'POST /dev_fetch_api_key': 'no caller: a login',
  'POST /sandbox/invites/{invite_id}/accept': 'no caller: the invitation key (test/engine/invites.test.ts)',
  'POST /sandbox/invites/multiuse/{invite_id}/accept': 'no caller: the link’s key (test/engine/invite-links.test.ts)',
  'POST /register': 'a read of the caller’s own state and queue',
  'DELETE /events': 'the caller’s own queue',
  // Rows a caller made for themselves first; each endpoint's tests refuse everyone else's.
  'DELETE /messages/{message_id}/reactions': 'the caller’s own reaction (test/engine/reactions.test.ts)',
  'PATCH /scheduled_messages/{scheduled_message_id}': 'the caller’s own scheduled message (test/engine/scheduled-messages-edit.test.ts)',
  'DELETE /scheduled_messages/{scheduled_message_id}': 'the caller’s own scheduled message (test/engine/scheduled-messages.test.ts)',
  'DELETE /reminders/{reminder_id}': 'the caller’s own reminder (test/engine/scheduled-messages-reminders.test.ts)',
  'PATCH /navigation_views/{fragment*}': 'the caller’s own view (test/engine/navigation-views.test.ts)',
  'DELETE /navigation_views/{fragment*}': 'the caller’s own view (test/engine/navigation-views.test.ts)',
  'PATCH /saved_snippets/{saved_snippet_id}': 'the caller’s own snippet (test/engine/saved-snippets.test.ts)',
  'DELETE /saved_snippets/{saved_snippet_id}': 'the caller’s own snippet (test/engine/saved-snippets.test.ts)',
  'PATCH /drafts/{draft_id}': 'the caller’s own draft (test/engine/drafts.test.ts)',
  'DELETE /drafts/{draft_id}': 'the caller’s own draft (test/engine/drafts.test.ts)',
  'DELETE /users/me/alert_words': 'the caller’s own alert words (test/engine/alert-words.test.ts)',
  'DELETE /users/me/muted_users/{muted_user_id}': 'the caller’s own mute (test/engine/muted-users.test.ts)',
  'DELETE /attachments/{attachment_id}': 'the caller’s own upload (test/engine/uploads.test.ts)',
  'DELETE /invites/{invite_id}': 'an invitation and who sent it (test/engine/invites.test.ts)',
  'POST /invites/{invite_id}/resend': 'an invitation and who sent it (test/engine/invites.test.ts)',
  'DELETE /users/me/apns_device_token': 'the caller’s own device (test/engine/push-devices.test.ts)',
  'DELETE /users/me/android_gcm_reg_id': 'the caller’s own device (test/engine/push-devices.test.ts)',
  'POST /mobile_push/test_notification': 'the caller’s own device (test/engine/push-devices.test.ts)',
  'PATCH /users/me/profile_data': 'a profile field the admin made (test/engine/profile-fields.test.ts)',
  'DELETE /users/me/profile_data': 'a profile field the admin made (test/engine/profile-fields.test.ts)',
  // Multipart bodies with a file.
  'POST /user_uploads': 'a file body (test/engine/uploads.test.ts)',
  'POST /realm/emoji/{emoji_name}': 'a file body (test/engine/realm-emoji-upload.test.ts)',
  'DELETE /realm/emoji/{emoji_name}': 'an emoji someone uploaded (test/engine/realm-emoji.test.ts)',
  // Rules that hang on a group's or the realm's own settings, each with its test file.
  'PATCH /user_groups/{user_group_id}': 'the group’s can_manage_group (test/engine/user-groups.test.ts)',
  'POST /user_groups/{user_group_id}/members': 'the group’s can_add_members_group (test/engine/user-groups.test.ts)',
  'POST /user_groups/{user_group_id}/subgroups': 'the group’s can_manage_group (test/engine/user-groups-nesting.test.ts)',
  'POST /user_groups/{user_group_id}/deactivate': 'the group’s can_manage_group (test/engine/user-groups.test.ts)',
  'POST /messages/{message_id}/typing': 'who may edit the message (test/engine/typing-edit.test.ts)',
  'POST /messages/{message_id}/report': 'the realm’s moderation request channel (test/engine/message-reports.test.ts)',
  'POST /export/realm': 'an export job (test/engine/realm-exports.test.ts)',
  // Orders of existing rows, admin-only by their auth kind like their creation above.
  'PATCH /realm/linkifiers': 'an order of linkifiers (test/engine/realm-linkifiers.test.ts)',
  'PATCH /realm/profile_fields': 'an order of profile fields (test/engine/profile-fields.test.ts)',
  'PATCH /realm/profile_fields/{field_id}': 'a profile field the admin made (test/engine/profile-fields.test.ts)',
  'DELETE /realm/profile_fields/{field_id}': 'a profile field the admin made (test/engine/profile-fields.test.ts)',
  'PATCH /channel_folders': 'an order of folders (test/engine/channel-folders.test.ts)',
};

describe('the permission matrix', () => {
  let realm: RoleRealm;
  let dirty = true;
  beforeAll(async () => {
    realm = await RoleRealm.create();
  });
  afterAll(() => realm.realm.engine.close());

  const clientOf = (role: Role) => (role === 'anonymous' ? realm.realm.anonymous() : realm.realm.as(ROLE_USERS[role]));

  it.each(CASES.map((matrixCase) => [matrixCase.endpoint, matrixCase] as const))('%s: the allowed roles succeed, every other role is refused and changes nothing', async (_, matrixCase) => {
    const outcomes: Record<string, string> = {};
    const expected: Record<string, string> = {};
    const answers: string[] = [];
    dirty = true;
    // Refusals first: they must leave the realm as it was, so they share one.
    const order = [...ROLES].sort((a, b) => Number(matrixCase.allowed.includes(a)) - Number(matrixCase.allowed.includes(b)));
    for (const role of order) {
      if (dirty || matrixCase.setup) {
        await realm.reset();
        await matrixCase.setup?.(realm.realm);
        dirty = false;
      }
      const before = await realm.state();
      const watchers = await realm.watchers();
      const eventIds = watchers.map((watcher) => watcher.nextEventId);
      const { status, body } = await matrixCase.send(clientOf(role), role);
      answers.push(`${role}: ${status} ${body.msg ?? ''}`);
      expected[role] = matrixCase.allowed.includes(role) ? 'success' : 'refused';
      if (status === 200 && body.result === 'success') {
        outcomes[role] = 'success';
        dirty = dirty || !matrixCase.ownRowsOnly;
        continue;
      }
      const unchanged = RoleRealm.sameState(before, await realm.state()) && watchers.every((watcher, i) => watcher.nextEventId === eventIds[i]);
      const wellFormed = status >= 400 && status < 500 && body.result === 'error' && typeof body.code === 'string';
      outcomes[role] = wellFormed && unchanged ? 'refused' : `${status} ${JSON.stringify(body)}${unchanged ? '' : ' and changed the realm'}`;
    }
    expect(outcomes, answers.join('; ')).toEqual(expected);
  });

  it('covers every write endpoint of the router’s table, or says why not', () => {
    const writes = ALL_ENDPOINTS.filter((endpoint) => endpoint.method !== 'GET').map((endpoint) => `${endpoint.method} ${endpoint.path}`);
    const covered = new Set([...CASES.map((matrixCase) => matrixCase.endpoint), ...Object.keys(NOT_IN_MATRIX)]);
    expect(writes.filter((endpoint) => !covered.has(endpoint))).toEqual([]);
  });
});
