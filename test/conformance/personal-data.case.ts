import { expect, it } from 'vitest';
import { caseSuite, IDS } from './harness.ts';

const error = (msg: string, code = 'BAD_REQUEST') => ({ result: 'error', msg, code });
const success = { result: 'success', msg: '' };

export const personalDataCases = caseSuite('personal data and realm configuration', (api) => {
  it('lets an administrator add a linkifier that everyone can list, and refuses a member', async () => {
    const linkifier = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}' };
    const added = await api.as('adam').post('/realm/filters', linkifier);
    expect(added.status).toBe(200);
    expect(added.body).toEqual({ ...success, id: expect.any(Number) });
    expect((await api.as('gail').get('/realm/linkifiers')).body.linkifiers).toEqual([{ id: added.body.id, ...linkifier }]);
    const refused = await api.as('mark').post('/realm/filters', { pattern: 'x(?P<id>1)', url_template: 'https://x.example/{id}' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(error('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'));
    expect((await api.as('adam').delete(`/realm/filters/${added.body.id}`)).body).toEqual(success);
  });

  it('keeps navigation views per user, refusing a blank fragment', async () => {
    expect((await api.as('mark').post('/navigation_views', { fragment: 'inbox', is_pinned: false })).body).toEqual(success);
    expect((await api.as('mark').get('/navigation_views')).body.navigation_views).toEqual([{ fragment: 'inbox', is_pinned: false, name: null }]);
    expect((await api.as('mark').post('/navigation_views', { fragment: ' ', is_pinned: true })).body).toEqual(error('fragment cannot be blank'));
    expect((await api.as('mark').delete('/navigation_views/inbox')).body).toEqual(success);
    expect((await api.as('mark').delete('/navigation_views/inbox')).status).toBe(404);
  });

  it('creates, edits and deletes a saved snippet, refusing an unknown one', async () => {
    const created = await api.as('mia').post('/saved_snippets', { title: 'Hi', content: 'Hello **there**' });
    const id = created.body.saved_snippet_id as number;
    expect((await api.as('mia').patch(`/saved_snippets/${id}`, { title: 'Hello' })).body).toEqual(success);
    expect((await api.as('mia').get('/saved_snippets')).body.saved_snippets).toEqual([
      { id, title: 'Hello', content: 'Hello **there**', date_created: expect.any(Number) },
    ]);
    const unknown = await api.as('mia').patch('/saved_snippets/9999', { title: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(error('Saved snippet does not exist.'));
    expect((await api.as('mia').delete(`/saved_snippets/${id}`)).body).toEqual(success);
  });

  it('sets a topic visibility policy, refusing a channel the caller cannot see', async () => {
    expect((await api.as('mark').post('/user_topics', { stream_id: IDS.general, topic: 'welcome', visibility_policy: 3 })).body).toEqual(success);
    expect((await api.as('mia').post('/user_topics', { stream_id: IDS.secret, topic: 'plans', visibility_policy: 1 })).body).toEqual(
      error('Invalid channel ID'),
    );
  });

  it('accepts typing notifications and presence reports', async () => {
    expect((await api.as('mark').post('/typing', { op: 'start', to: [IDS.mia] })).body).toEqual(success);
    expect((await api.as('mark').post('/typing', { op: 'start', to: [] })).body).toEqual(error("Empty 'to' list"));
    const presence = await api.as('mark').post('/users/me/presence', { status: 'active', slim_presence: true });
    expect(presence.body.presences[String(IDS.mark)]).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
    expect((await api.as('mark').post('/users/me/presence', { status: 'away' })).body).toEqual(error('Invalid status: away'));
  });

  it('lists the custom emoji', async () => {
    expect((await api.as('mark').get('/realm/emoji')).body).toEqual({ ...success, emoji: expect.any(Object) });
  });
});
