import { expect, it } from 'vitest';
import { caseSuite, IDS, type TestUser } from './harness.ts';

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });

export const realmAdminCases = caseSuite('realm administration', (api) => {
  async function register(user: TestUser, params: Record<string, unknown> = {}): Promise<string> {
    const { body } = await api.as(user).post('/register', { fetch_event_types: [], ...params });
    return body.queue_id as string;
  }
  const events = async (user: TestUser, queueId: string) =>
    (await api.as(user).get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events as Record<string, unknown>[];

  it('changes realm settings for administrators, with realm update and update_dict events', async () => {
    const queueId = await register('mark');
    const changed = await api.as('adam').patch('/realm', { name: 'Renamed', allow_message_editing: false, topics_policy: 'disable_empty_topic' });
    expect(changed.body).toEqual({ result: 'success', msg: '', name: 'updated', allow_message_editing: false, topics_policy: 'disable_empty_topic' });
    expect(await events('mark', queueId)).toEqual([
      { id: 0, type: 'realm', op: 'update', property: 'name', value: 'Renamed' },
      { id: 1, type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: false } },
      { id: 2, type: 'realm', op: 'update_dict', property: 'default', data: { topics_policy: 'disable_empty_topic', mandatory_topics: true } },
    ]);
    expect((await api.as('mark').patch('/realm', { name: 'Mine' })).body).toEqual(error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    expect((await api.as('mark').post('/register', { fetch_event_types: ['realm'] })).body.realm_name).toBe('Renamed');
  });

  it('changes the settings new users start with, announced as realm_user_settings_defaults events', async () => {
    const queueId = await register('gail');
    expect((await api.as('adam').patch('/realm/user_settings_defaults', { web_home_view: 'recent_topics', color_scheme: 2 })).body).toEqual({ result: 'success', msg: '' });
    expect(await events('gail', queueId)).toEqual([
      { id: 0, type: 'realm_user_settings_defaults', op: 'update', property: 'color_scheme', value: 2 },
      { id: 1, type: 'realm_user_settings_defaults', op: 'update', property: 'web_home_view', value: 'recent_topics' },
    ]);
    const state = await api.as('gail').post('/register', { fetch_event_types: ['realm_user_settings_defaults'] });
    expect(state.body.realm_user_settings_defaults).toMatchObject({ web_home_view: 'recent_topics', color_scheme: 2 });
    expect((await api.as('mark').patch('/realm/user_settings_defaults', { color_scheme: 1 })).body).toEqual(
      error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'),
    );
  });

  it('adds and removes default channels, announced as default_streams events', async () => {
    const queueId = await register('mark');
    expect((await api.as('adam').post('/default_streams', { stream_id: IDS.design })).body).toEqual({ result: 'success', msg: '' });
    expect((await api.as('adam').delete('/default_streams', { stream_id: IDS.design })).body).toEqual({ result: 'success', msg: '' });
    expect(await events('mark', queueId)).toEqual([
      { id: 0, type: 'default_streams', default_streams: [IDS.general, IDS.design] },
      { id: 1, type: 'default_streams', default_streams: [IDS.general] },
    ]);
    const refused = await api.as('olivia').post('/default_streams', { stream_id: IDS.secret });
    expect([refused.status, refused.body]).toEqual([400, error('Private channels cannot be made default.')]);
  });

  it('creates a user for an administrator holding can_create_users, with a realm_user add event', async () => {
    const queueId = await register('mark');
    const created = await api.as('olivia').post('/users', { email: 'newbie@zulip.test', password: 'newbie-pass', full_name: 'New Bie' });
    expect(created.body).toEqual({ result: 'success', msg: '', user_id: expect.any(Number) });
    const userId = created.body.user_id as number;
    expect((await events('mark', queueId))[0]).toMatchObject({ type: 'realm_user', op: 'add', person: { user_id: userId, full_name: 'New Bie' } });
    const again = await api.as('olivia').post('/users', { email: 'newbie@zulip.test', password: 'newbie-pass', full_name: 'New Bie' });
    expect([again.status, again.body]).toEqual([400, error("Email 'newbie@zulip.test' already in use")]);
    const login = await api.anonymous().post('/fetch_api_key', { username: 'newbie@zulip.test', password: 'newbie-pass' });
    expect(login.body).toMatchObject({ result: 'success', user_id: userId });
  });

  it('answers dev_fetch_api_key as a production server when the realm does not enable development login', async () => {
    const refused = await api.anonymous().post('/dev_fetch_api_key', { username: 'mark@zulip.test' });
    expect([refused.status, refused.body]).toEqual([400, error('Endpoint not available in production.')]);
  });

  it('uploads a custom emoji whose image every host serves, and deactivates it, with realm_emoji events', async () => {
    const queueId = await register('mia');
    const image = { name: 'wave.png', type: 'image/png', content: 'not really a png' };
    expect((await api.as('mark').uploadTo('/realm/emoji/wave_hello', image)).body).toEqual({ result: 'success', msg: '' });
    const [emoji] = Object.values((await api.as('mia').get('/realm/emoji')).body.emoji as Record<string, Record<string, unknown>>);
    expect(emoji).toMatchObject({ name: 'wave_hello', deactivated: false, author_id: IDS.mark, still_url: null });
    const served = await api.anonymous().fetchFile(emoji.source_url as string);
    expect([served.status, served.headers['content-type'], served.text]).toEqual([200, 'image/png', 'not really a png']);
    expect((await api.as('mia').delete('/realm/emoji/wave_hello')).body).toEqual(error('Must be an organization administrator or emoji author'));
    expect((await api.as('mark').delete('/realm/emoji/wave_hello')).body).toEqual({ result: 'success', msg: '' });
    const updates = await events('mia', queueId);
    expect(updates.map((e) => (e.realm_emoji as Record<string, { deactivated: boolean }>)[emoji.id as string].deactivated)).toEqual([false, true]);
    const missing = await api.as('mark').delete('/realm/emoji/wave_hello');
    expect([missing.status, missing.body]).toEqual([404, error("Emoji 'wave_hello' does not exist")]);
  });

  it('adds and removes code playgrounds, listed in register and sent as realm_playgrounds events', async () => {
    const queueId = await register('mark');
    const playground = { name: 'Python', pygments_language: 'python3', url_template: 'https://python.example/?code={code}' };
    const added = await api.as('adam').post('/realm/playgrounds', playground);
    expect(added.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const id = added.body.id as number;
    expect((await api.as('mark').post('/register', { fetch_event_types: ['realm_playgrounds'] })).body.realm_playgrounds).toEqual([{ id, ...playground }]);
    expect((await api.as('adam').delete(`/realm/playgrounds/${id}`)).body).toEqual({ result: 'success', msg: '' });
    expect(await events('mark', queueId)).toEqual([
      { id: 0, type: 'realm_playgrounds', realm_playgrounds: [{ id, ...playground }] },
      { id: 1, type: 'realm_playgrounds', realm_playgrounds: [] },
    ]);
    const missing = await api.as('adam').delete(`/realm/playgrounds/${id}`);
    expect([missing.status, missing.body]).toEqual([400, error('Invalid playground')]);
  });

  it('exports the realm as an archive file listed with upstream export objects, with realm_export events', async () => {
    const queueId = await register('olivia');
    const made = await api.as('adam').post('/export/realm');
    expect(made.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const { exports } = (await api.as('adam').get('/export/realm')).body as { exports: Record<string, unknown>[] };
    const listed = exports.find((e) => e.id === made.body.id);
    expect(listed).toMatchObject({ acting_user_id: IDS.adam, export_type: 1, pending: false, failed_timestamp: null, deleted_timestamp: null });
    const file = await api.anonymous().fetchFile(listed?.export_url as string);
    expect([file.status, JSON.parse(file.text).format]).toEqual([200, 'offline-realm-archive']);
    const updates = await events('olivia', queueId);
    expect(updates.map((e) => e.type)).toEqual(['realm_export', 'realm_export']);
    const consents = await api.as('adam').get('/export/realm/consents');
    expect(consents.body.export_consents).toContainEqual({ user_id: IDS.mark, consented: false });
  });

  it("answers a channel's incoming-mail address in upstream's form, for channels the caller can read", async () => {
    const { status, body } = await api.as('mark').get(`/streams/${IDS.design}/email_address`);
    expect([status, body]).toEqual([200, { result: 'success', msg: '', email: expect.stringMatching(/^design\.[0-9a-f]{32}\.show-sender@zulip\.test$/) }]);
    const refused = await api.as('mia').get(`/streams/${IDS.secret}/email_address`);
    expect([refused.status, refused.body]).toEqual([400, error('Invalid channel ID')]);
  });
});
