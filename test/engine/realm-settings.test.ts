import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GROUP_ADMINISTRATORS } from '../../src/engine/permissions/system-groups.ts';
import { expectRefused } from '../support/expect-refused.ts';
import { type ApiResult, createTestRealm, IDS, openQueue, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const error = (msg: string, code = 'BAD_REQUEST', extra: Record<string, unknown> = {}) => ({ result: 'error', msg, code, ...extra });
const refused = (send: () => Promise<ApiResult>, expected: Record<string, unknown>) => expectRefused(realm, send, expected);
const realmState = async () => (await realm.as('mark').post('/register', { fetch_event_types: ['realm'] })).body;

describe('PATCH /realm', () => {
  it('renames the realm and describes it, answering the changed settings and telling every user', async () => {
    const watcher = openQueue(realm.engine, IDS.gail);
    const { status, body } = await realm.as('adam').patch('/realm', { name: 'New Name', description: 'About us' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', name: 'updated', description: 'updated' });
    expect(watcher.events).toEqual([
      { id: 0, type: 'realm', op: 'update', property: 'name', value: 'New Name' },
      { id: 1, type: 'realm', op: 'update', property: 'description', value: 'About us' },
    ]);
    const state = await realmState();
    expect([state.realm_name, state.realm_description]).toEqual(['New Name', 'About us']);
  });

  it('sets the default language of code blocks: fences naming none are rendered in it, `text` stays plain', async () => {
    const watcher = openQueue(realm.engine, IDS.gail);
    const { body } = await realm.as('adam').patch('/realm', { default_code_block_language: 'py' });
    expect(body).toEqual({ result: 'success', msg: '', default_code_block_language: 'updated' });
    expect(watcher.events).toEqual([{ id: 0, type: 'realm', op: 'update', property: 'default_code_block_language', value: 'py' }]);
    expect((await realmState()).realm_default_code_block_language).toBe('py');
    const render = async (content: string) => (await realm.as('mark').post('/messages/render', { content })).body.rendered;
    expect(await render('```\nx = 1\n```')).toBe(
      '<div class="codehilite" data-code-language="Python"><pre><span></span><code>x = <span class="m">1</span>\n</code></pre></div>',
    );
    expect(await render('```text\nx = 1\n```')).toBe('<div class="codehilite" data-code-language="Text only"><pre><span></span><code>x = 1\n</code></pre></div>');
    expect((await realm.as('adam').patch('/realm', { default_code_block_language: '' })).body).toEqual({ result: 'success', msg: '', default_code_block_language: 'updated' });
    expect(await render('```\nx = 1\n```')).toBe('<div class="codehilite"><pre><span></span><code>x = 1\n</code></pre></div>');
  });

  it('refuses a default code block language longer than a Pygments alias, changing nothing', async () => {
    await refused(() => realm.as('adam').patch('/realm', { default_code_block_language: 'x'.repeat(41) }), error('default_code_block_language is too long (limit: 40 characters)'));
    expect((await realmState()).realm_default_code_block_language).toBe('');
  });

  it('changes the editing settings with update_dict events where upstream sends them', async () => {
    const watcher = openQueue(realm.engine, IDS.mark);
    const { body } = await realm.as('adam').patch('/realm', {
      allow_message_editing: false,
      message_content_edit_limit_seconds: 900,
      move_messages_within_stream_limit_seconds: 'unlimited',
      allow_edit_history: false,
    });
    expect(body).toEqual({
      result: 'success',
      msg: '',
      allow_message_editing: false,
      message_content_edit_limit_seconds: 900,
      move_messages_within_stream_limit_seconds: null,
      allow_edit_history: false,
    });
    expect(watcher.events).toEqual([
      { id: 0, type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: 900 } },
      { id: 1, type: 'realm', op: 'update', property: 'move_messages_within_stream_limit_seconds', value: null },
      { id: 2, type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: false } },
      { id: 3, type: 'realm', op: 'update', property: 'allow_edit_history', value: false },
    ]);
    const state = await realmState();
    expect(state.realm_allow_message_editing).toBe(false);
    expect(state.realm_message_content_edit_limit_seconds).toBe(900);
    expect(state.realm_move_messages_within_stream_limit_seconds).toBeNull();
    expect(state.realm_allow_edit_history).toBe(false);
  });

  it('answers no data and sends nothing when every value is already the current one', async () => {
    const watcher = openQueue(realm.engine, IDS.mark);
    const { body } = await realm.as('adam').patch('/realm', { name: 'Test Realm', allow_message_editing: true });
    expect(body).toEqual({ result: 'success', msg: '' });
    expect(watcher.events).toEqual([]);
  });

  it('sets the topics policy, also through the older mandatory_topics', async () => {
    const watcher = openQueue(realm.engine, IDS.mark);
    expect((await realm.as('adam').patch('/realm', { mandatory_topics: true })).body).toEqual({ result: 'success', msg: '', topics_policy: 'disable_empty_topic' });
    expect(watcher.events).toEqual([
      { id: 0, type: 'realm', op: 'update_dict', property: 'default', data: { topics_policy: 'disable_empty_topic', mandatory_topics: true } },
    ]);
    await realm.as('adam').patch('/realm', { topics_policy: 'allow_empty_topic' });
    expect((await realmState()).realm_mandatory_topics).toBe(false);
  });

  it('points new-channel announcements at a channel or nowhere', async () => {
    const watcher = openQueue(realm.engine, IDS.mark);
    expect((await realm.as('adam').patch('/realm', { new_stream_announcements_stream_id: IDS.design })).body.new_stream_announcements_stream_id).toBe(IDS.design);
    expect((await realm.as('adam').patch('/realm', { new_stream_announcements_stream_id: -1 })).body.new_stream_announcements_stream_id).toBe(-1);
    expect(watcher.events.map((e) => e.value)).toEqual([IDS.design, -1]);
    expect((await realmState()).realm_new_stream_announcements_stream_id).toBe(-1);
  });

  it('changes a permission group setting, checking the expected old value', async () => {
    const watcher = openQueue(realm.engine, IDS.mark);
    const changed = await realm.as('adam').patch('/realm', { can_move_messages_between_channels_group: { new: { direct_members: [IDS.mia], direct_subgroups: [] } } });
    expect(changed.body).toEqual({ result: 'success', msg: '', can_move_messages_between_channels_group: { direct_members: [IDS.mia], direct_subgroups: [] } });
    expect(watcher.events).toEqual([
      {
        id: 0,
        type: 'realm',
        op: 'update_dict',
        property: 'default',
        data: { can_move_messages_between_channels_group: { direct_members: [IDS.mia], direct_subgroups: [] } },
      },
    ]);
    await refused(
      () => realm.as('adam').patch('/realm', { can_move_messages_between_channels_group: { new: 6, old: 3 } }),
      error("'old' value does not match the expected value.", 'EXPECTATION_MISMATCH'),
    );
  });

  it('changes who may create public and private channels, and creation follows it', async () => {
    const create = (who: 'mark' | 'adam', name: string, inviteOnly: boolean) =>
      realm.as(who).post('/channels/create', { name, subscribers: JSON.stringify([IDS[who]]), invite_only: inviteOnly });
    const admins = GROUP_ADMINISTRATORS;
    const changed = await realm.as('adam').patch('/realm', { can_create_public_channel_group: { new: admins } });
    expect(changed.body).toEqual({ result: 'success', msg: '', can_create_public_channel_group: admins });
    expect((await realmState()).realm_can_create_public_channel_group).toBe(admins);
    await refused(() => create('mark', 'public-by-member', false), error('Insufficient permission'));
    expect((await create('mark', 'private-by-member', true)).body.result).toBe('success');
    expect((await create('adam', 'public-by-admin', false)).body.result).toBe('success');
    await refused(
      () => realm.as('adam').patch('/realm', { can_create_private_channel_group: { new: 7 } }),
      error("'can_create_private_channel_group' setting cannot be set to 'role:everyone' group."),
    );
  });

  it('lets only owners change the retention period and who may invite', async () => {
    await refused(() => realm.as('adam').patch('/realm', { message_retention_days: 30 }), error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'));
    await refused(() => realm.as('adam').patch('/realm', { can_invite_users_group: { new: 3 } }), error('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'));
    expect((await realm.as('olivia').patch('/realm', { message_retention_days: 30 })).body).toEqual({ result: 'success', msg: '', message_retention_days: 30 });
  });

  it('refuses members, and changes nothing when one value of several is bad', async () => {
    await refused(() => realm.as('mark').patch('/realm', { name: 'Mine' }), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    await refused(
      () => realm.as('adam').patch('/realm', { name: 'Fine', message_content_delete_limit_seconds: 0 }),
      error("Bad value for 'message_content_delete_limit_seconds': 0", 'REQUEST_VARIABLE_INVALID', { var_name: 'message_content_delete_limit_seconds', bad_value: 0 }),
    );
    await refused(() => realm.as('adam').patch('/realm', { name: 'x'.repeat(41) }), error('name is too long (limit: 40 characters)'));
    await refused(() => realm.as('adam').patch('/realm', { new_stream_announcements_stream_id: 99 }), error('Invalid channel ID'));
    await refused(() => realm.as('adam').patch('/realm', { topics_policy: 'inherit' }), error('Invalid topics_policy'));
    await refused(
      () => realm.as('adam').patch('/realm', { can_move_messages_between_channels_group: { new: 7 } }),
      error("'can_move_messages_between_channels_group' setting cannot be set to 'role:everyone' group."),
    );
    await refused(() => realm.as('mark').patch('/realm', { can_resolve_topics_group: { new: 3 } }), error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    await refused(() => realm.as('adam').patch('/realm', { can_resolve_topics_group: { new: 99999 } }), error('Invalid user group ID: 99999'));
  });

  it("reports upstream's settings this server does not keep as ignored", async () => {
    const { body } = await realm.as('adam').patch('/realm', { invite_required: false });
    expect(body).toEqual({ result: 'success', msg: '', ignored_parameters_unsupported: ['invite_required'] });
  });
});
