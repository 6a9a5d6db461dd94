import { expect, it } from 'vitest';
import { caseSuite, IDS } from './harness.ts';

/** Creating, changing and archiving channels, and their folders, seen from the wire. */
export const channelWriteCases = caseSuite('channel creation, settings and folders', (api) => {
  it('creates a channel with exactly the listed subscribers, found by name, with the creation note as its first topic', async () => {
    const created = await api.as('mark').post('/channels/create', { name: 'music', description: 'Tunes', subscribers: [IDS.mia] });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ result: 'success', msg: '', id: 6 });
    expect((await api.as('mark').get('/get_stream_id', { stream: 'Music' })).body.stream_id).toBe(6);
    expect((await api.as('mark').get('/streams/6/members')).body.subscribers).toEqual([IDS.mia]);
    expect((await api.as('mia').get('/users/me/6/topics')).body.topics).toEqual([{ name: 'channel events', max_id: 5 }]);
  });

  it('renames a channel for an administrator and refuses a member', async () => {
    expect((await api.as('adam').patch(`/streams/${IDS.design}`, { new_name: 'ux' })).status).toBe(200);
    expect((await api.as('mia').get(`/streams/${IDS.design}`)).body.stream.name).toBe('ux');
    const refused = await api.as('mark').patch(`/streams/${IDS.design}`, { new_name: 'mine' });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ result: 'error', msg: 'You do not have permission to administer this channel.', code: 'BAD_REQUEST' });
  });

  it('archives a channel, which then refuses new messages', async () => {
    expect((await api.as('adam').delete(`/streams/${IDS.design}`)).body).toEqual({ result: 'success', msg: '' });
    const late = await api.as('mark').post('/messages', { type: 'stream', to: 'design', topic: 't', content: 'late' });
    expect(late.body.code).toBe('STREAM_DOES_NOT_EXIST');
  });

  it('creates, lists and reorders channel folders for administrators only', async () => {
    const refused = await api.as('mark').post('/channel_folders/create', { name: 'Fun', description: '' });
    expect(refused.body).toEqual({ result: 'error', msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });
    expect((await api.as('adam').post('/channel_folders/create', { name: 'Fun', description: '' })).body.channel_folder_id).toBe(2);
    expect((await api.as('adam').patch('/channel_folders', { order: [2, 1] })).status).toBe(200);
    const { body } = await api.as('gail').get('/channel_folders');
    expect(body.channel_folders.map((f: { id: number; name: string }) => [f.id, f.name])).toEqual([[2, 'Fun'], [1, 'Work']]);
  });
});
