import { expect, it } from 'vitest';
import { caseSuite, IDS, type TestUser } from './harness.ts';

const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

export const editCases = caseSuite('editing, moving and deleting messages', (api) => {
  async function send(user: TestUser, topic: string, content: string, to = 'general'): Promise<number> {
    const { body } = await api.as(user).post('/messages', { type: 'channel', to, topic, content });
    return body.id as number;
  }
  const shown = async (user: TestUser, id: number) => (await api.as(user).get(`/messages/${id}`)).body;
  const history = async (id: number) => (await api.as('mark').get(`/messages/${id}/history`)).body;

  it('lets the sender edit a recent message, re-rendering it for every viewer', async () => {
    const id = await send('mark', 'lunch', 'hello');
    const edited = await api.as('mark').patch(`/messages/${id}`, { content: '**bold** move' });
    expect(edited.status).toBe(200);
    expect(edited.body).toEqual({ result: 'success', msg: '', detached_uploads: [] });
    const seen = await shown('mia', id);
    expect(seen.raw_content).toBe('**bold** move');
    expect(seen.message).toMatchObject({ content: '<p><strong>bold</strong> move</p>', last_edit_timestamp: expect.any(Number) });
    expect(seen.message).not.toHaveProperty('last_moved_timestamp');
  });

  it('recomputes mention flags when an edit adds a mention', async () => {
    const id = await send('mark', 'lunch', 'hello');
    await api.as('mark').patch(`/messages/${id}`, { content: 'hello @**Mia Member**' });
    expect((await shown('mia', id)).message.flags).toEqual(['mentioned']);
  });

  it("refuses editing someone else's message and unknown or invisible ones, changing nothing", async () => {
    const id = await send('mark', 'lunch', 'mine');
    expect((await api.as('mia').patch(`/messages/${id}`, { content: 'yours' })).body).toEqual(error("You don't have permission to edit this message"));
    expect((await shown('mark', id)).raw_content).toBe('mine');
    expect((await api.as('mia').patch('/messages/3', { content: 'x' })).body).toEqual(error('Invalid message(s)'));
    expect((await api.as('mark').patch('/messages/999', { content: 'x' })).body).toEqual(error('Invalid message(s)'));
  });

  it('refuses an edit that changes nothing and topics on direct messages', async () => {
    const id = await send('mark', 'still', 'same');
    expect((await api.as('mark').patch(`/messages/${id}`, {})).body).toEqual(error('Nothing to change'));
    const dm = await api.as('mark').post('/messages', { type: 'direct', to: [IDS.mia], content: 'psst' });
    expect((await api.as('mark').patch(`/messages/${dm.body.id}`, { topic: 'x' })).body).toEqual(error('Direct messages cannot have topics.'));
  });

  it('moves one message to a new topic with change_one', async () => {
    const first = await send('mark', 'move one', 'a');
    const second = await send('mark', 'move one', 'b');
    expect((await api.as('mark').patch(`/messages/${second}`, { topic: 'moved' })).status).toBe(200);
    expect((await shown('mia', first)).message.subject).toBe('move one');
    expect((await shown('mia', second)).message).toMatchObject({ subject: 'moved', last_moved_timestamp: expect.any(Number) });
  });

  it('moves the whole topic with change_all, the notification bot noting it in the new topic', async () => {
    const ids = [await send('mark', 'move all', 'a'), await send('mia', 'move all', 'b'), await send('mark', 'move all', 'c')];
    expect((await api.as('mark').patch(`/messages/${ids[1]}`, { topic: 'all moved', propagate_mode: 'change_all' })).status).toBe(200);
    const { body } = await api.as('mia').get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'all moved' }],
    });
    expect(body.messages.map((m: { id: number }) => m.id).slice(0, 3)).toEqual(ids);
    expect(body.messages[3]).toMatchObject({
      sender_id: 1,
      content: '<p>This topic was moved here from <a class="stream-topic" data-stream-id="1" href="/#narrow/channel/1-general/topic/move.20all">#general &gt; move all</a> by <span class="user-mention silent" data-user-id="11">Mark Member</span>.</p>',
    });
  });

  it('moves a message to another channel', async () => {
    const id = await send('mark', 'relocate', 'to design');
    expect((await api.as('mark').patch(`/messages/${id}`, { stream_id: IDS.design })).status).toBe(200);
    expect((await shown('mark', id)).message).toMatchObject({ stream_id: IDS.design, display_recipient: 'design', subject: 'relocate' });
  });

  it('records content and topic edits in the history, oldest first', async () => {
    const id = await send('mark', 'lunch', 'hello');
    await api.as('mark').patch(`/messages/${id}`, { content: 'hello world' });
    await api.as('mark').patch(`/messages/${id}`, { topic: 'dinner' });
    const { message_history: snapshots } = await history(id);
    expect(snapshots).toEqual([
      { content: 'hello', rendered_content: '<p>hello</p>', timestamp: expect.any(Number), topic: 'lunch', user_id: IDS.mark },
      expect.objectContaining({ content: 'hello world', prev_content: 'hello', prev_rendered_content: '<p>hello</p>', topic: 'lunch', content_html_diff: expect.any(String) }),
      expect.objectContaining({ content: 'hello world', topic: 'dinner', prev_topic: 'lunch' }),
    ]);
  });

  it('returns only the original snapshot for a message never edited', async () => {
    expect(await history(2)).toEqual({
      result: 'success',
      msg: '',
      message_history: [{ content: 'Thanks @**Olivia Owner**', rendered_content: expect.stringContaining('Olivia Owner'), timestamp: 1767225060, topic: 'welcome', user_id: IDS.mark }],
    });
    expect((await api.as('mia').get('/messages/3/history')).body).toEqual(error('Invalid message(s)'));
  });

  it('lets the sender delete a message, which then is gone for everyone', async () => {
    const id = await send('mark', 'doomed', 'bye');
    const removed = await api.as('mark').delete(`/messages/${id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ result: 'success', msg: '' });
    expect((await api.as('mia').get(`/messages/${id}`)).body).toEqual(error('Invalid message(s)'));
    const { body } = await api.as('mia').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'topic', operand: 'doomed' }] });
    expect(body.messages).toEqual([]);
  });

  it("refuses deleting someone else's message, but lets an administrator", async () => {
    const id = await send('mark', 'keep', 'mine');
    expect((await api.as('mia').delete(`/messages/${id}`)).body).toEqual(error("You don't have permission to delete this message"));
    expect((await shown('mia', id)).message.id).toBe(id);
    expect((await api.as('adam').delete(`/messages/${id}`)).status).toBe(200);
    expect((await api.as('adam').delete('/messages/999')).body).toEqual(error('Invalid message(s)'));
  });
});
