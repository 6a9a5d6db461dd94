import { expect, it } from 'vitest';
import { caseSuite, IDS } from './harness.ts';

const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });
const success = { result: 'success', msg: '' };

export const personalStateCases = caseSuite('drafts, alert words, muted users, user status and topics', (api) => {
  it('creates, lists, edits and deletes drafts, refusing a channel draft without one channel', async () => {
    const draft = { type: 'stream', to: [IDS.general], topic: 'plans', content: 'Shall we meet?', timestamp: 1595479019 };
    const created = await api.as('mark').post('/drafts', { drafts: [draft] });
    expect(created.body).toEqual({ ...success, ids: [expect.any(Number)] });
    const [id] = created.body.ids as number[];
    expect((await api.as('mark').get('/drafts')).body).toEqual({ ...success, count: 1, drafts: [{ id, ...draft }] });
    const edited = { type: 'private', to: [IDS.mia], topic: '', content: 'Changed', timestamp: 1595479020 };
    expect((await api.as('mark').patch(`/drafts/${id}`, { draft: edited })).body).toEqual(success);
    expect((await api.as('mark').get('/drafts')).body.drafts).toEqual([{ id, ...edited }]);
    expect((await api.as('mark').post('/drafts', { drafts: [{ ...draft, to: [] }] })).body).toEqual(
      error('Must specify exactly 1 channel ID for channel messages'),
    );
    expect((await api.as('mark').delete(`/drafts/${id}`)).body).toEqual(success);
    const missing = await api.as('mark').delete(`/drafts/${id}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(error('Draft does not exist'));
  });

  it('keeps alert words and flags the messages that contain them, which is:alerted finds', async () => {
    expect((await api.as('mia').post('/users/me/alert_words', { alert_words: ['Deploy', 'deploy', ' '] })).body).toEqual({
      ...success,
      alert_words: ['Deploy'],
    });
    const sent = await api.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'ops', content: 'time to deploy!' });
    const alerted = await api.as('mia').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'is', operand: 'alerted' }] });
    expect(alerted.body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags])).toEqual([[sent.body.id, ['has_alert_word']]]);
    expect((await api.as('mia').post('/users/me/alert_words', { alert_words: ['x'.repeat(101)] })).body).toEqual(
      error('alert_words[0] is too long (limit: 100 characters)'),
    );
    expect((await api.as('mia').delete('/users/me/alert_words', { alert_words: ['DEPLOY'] })).body).toEqual({ ...success, alert_words: [] });
  });

  it('mutes and unmutes a user, refusing oneself and a user not muted', async () => {
    expect((await api.as('gail').post(`/users/me/muted_users/${IDS.olivia}`)).body).toEqual(success);
    const registered = await api.as('gail').post('/register', { fetch_event_types: ['muted_users'] });
    expect(registered.body.muted_users).toEqual([{ id: IDS.olivia, timestamp: expect.any(Number) }]);
    expect((await api.as('gail').post(`/users/me/muted_users/${IDS.gail}`)).body).toEqual(error('Cannot mute self'));
    expect((await api.as('gail').delete(`/users/me/muted_users/${IDS.olivia}`)).body).toEqual(success);
    expect((await api.as('gail').delete(`/users/me/muted_users/${IDS.olivia}`)).body).toEqual(error('User is not muted'));
  });

  it("sets a status that anyone can read, refusing a text over 60 characters", async () => {
    expect((await api.as('adam').post('/users/me/status', { status_text: 'on vacation', emoji_name: 'car' })).body).toEqual(success);
    expect((await api.as('mark').get(`/users/${IDS.adam}/status`)).body).toEqual({
      ...success,
      status: { status_text: 'on vacation', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
    });
    expect((await api.as('adam').post('/users/me/status', { status_text: 'x'.repeat(61) })).body).toEqual(
      error('status_text is too long (limit: 60 characters)'),
    );
    expect((await api.as('adam').post('/users/me/status', {})).body).toEqual(error('Client did not pass any new values.'));
  });

  it('mutes and unmutes a topic through the legacy endpoint, refusing both stream and stream_id', async () => {
    const mute = (params: Record<string, unknown>) => api.as('mona').patch('/users/me/subscriptions/muted_topics', params);
    expect((await mute({ stream: 'general', topic: 'lunch', op: 'add' })).body).toEqual(success);
    const registered = await api.as('mona').post('/register', { fetch_event_types: ['muted_topics'] });
    expect(registered.body.muted_topics).toEqual([['general', 'lunch', expect.any(Number)]]);
    expect((await mute({ stream_id: IDS.general, topic: 'lunch', op: 'remove' })).body).toEqual(success);
    expect((await mute({ stream: 'general', stream_id: IDS.general, topic: 'lunch', op: 'add' })).body).toEqual({
      ...error('Unsupported parameter combination: stream_id, stream'),
      parameters: 'stream_id, stream',
    });
  });

  it('lets an administrator delete a topic, and refuses a member', async () => {
    const sent = await api.as('olivia').post('/messages', { type: 'stream', to: 'design', topic: 'to delete', content: 'soon gone' });
    const refused = await api.as('mark').post(`/streams/${IDS.design}/delete_topic`, { topic_name: 'to delete' });
    expect(refused.body).toEqual({ result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    expect((await api.as('olivia').post(`/streams/${IDS.design}/delete_topic`, { topic_name: 'To Delete' })).body).toEqual({ ...success, complete: true });
    expect((await api.as('olivia').get(`/messages/${sent.body.id}`)).body).toEqual(error('Invalid message(s)'));
  });
});
