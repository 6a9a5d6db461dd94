import { expect, it } from 'vitest';
import { caseSuite, IDS, type TestUser } from './harness.ts';

export const eventCases = caseSuite('register and events', (api) => {
  async function register(user: TestUser, params: Record<string, unknown> = {}): Promise<string> {
    const { body } = await api.as(user).post('/register', { fetch_event_types: [], ...params });
    return body.queue_id as string;
  }
  const drain = (user: TestUser, queueId: string, lastEventId = -1) =>
    api.as(user).get('/events', { queue_id: queueId, last_event_id: lastEventId, dont_block: true });
  const say = (content: string, extra: Record<string, unknown> = {}) =>
    api.as('olivia').post('/messages', { type: 'channel', to: 'general', topic: 'news', content, ...extra });

  it('delivers a message sent after register as a message event', async () => {
    const queueId = await register('mark');
    const sent = await say('hello **all**');
    const { status, body } = await drain('mark', queueId);
    expect(status).toBe(200);
    expect(body).toMatchObject({ result: 'success', msg: '', queue_id: queueId });
    expect(body.events).toEqual([
      expect.objectContaining({
        id: 0,
        type: 'message',
        flags: [],
        message: expect.objectContaining({ id: sent.body.id, content: 'hello **all**', content_type: 'text/x-markdown', sender_id: IDS.olivia, subject: 'news' }),
      }),
    ]);
  });

  it('answers dont_block at once with an empty list', async () => {
    const queueId = await register('mark');
    expect((await drain('mark', queueId)).body).toEqual({ result: 'success', msg: '', events: [], queue_id: queueId });
  });

  // A case cannot see whether the poll has parked yet; in either order it must get the message.
  // The waking of a parked poll itself is test/engine/event-queues.test.ts's.
  it('answers a long-poll issued before a send with that message', async () => {
    const queueId = await register('mark', { event_types: ['message'] });
    const poll = api.as('mark').get('/events', { queue_id: queueId, last_event_id: -1 });
    await say('wake up');
    const { status, body } = await poll;
    expect(status).toBe(200);
    expect(body.events.map((e: { type: string; message: { content: string } }) => [e.type, e.message.content])).toEqual([['message', 'wake up']]);
  });

  it('keeps events until acknowledged, and refuses acknowledging one it never held', async () => {
    const queueId = await register('mark');
    await say('first');
    await say('second');
    expect((await drain('mark', queueId)).body.events.map((e: { id: number }) => e.id)).toEqual([0, 1]);
    expect((await drain('mark', queueId, 0)).body.events.map((e: { id: number }) => e.id)).toEqual([1]);
    const refused = await drain('mark', queueId, 5);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ result: 'error', msg: 'Event 5 was not in this queue', code: 'BAD_REQUEST' });
    expect((await drain('mark', queueId, 1)).body.events).toEqual([]);
  });

  it('echoes local_id to the sending queue only', async () => {
    const own = await register('olivia');
    const other = await register('olivia');
    await say('local echo', { queue_id: own, local_id: 'draft-1', read_by_sender: true });
    expect((await drain('olivia', own)).body.events[0]).toMatchObject({ type: 'message', local_message_id: 'draft-1', flags: ['read'] });
    expect((await drain('olivia', other)).body.events[0]).not.toHaveProperty('local_message_id');
  });

  it('answers BAD_EVENT_QUEUE_ID for a bogus queue and for someone else’s', async () => {
    const bogus = await api.as('mark').get('/events', { queue_id: 'no-such-queue', last_event_id: -1, dont_block: true });
    expect(bogus.status).toBe(400);
    expect(bogus.body).toEqual({ result: 'error', msg: 'Bad event queue ID: no-such-queue', code: 'BAD_EVENT_QUEUE_ID', queue_id: 'no-such-queue' });
    const queueId = await register('mark');
    const foreign = await drain('mia', queueId);
    expect(foreign.body).toEqual({ result: 'error', msg: `Bad event queue ID: ${queueId}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: queueId });
  });

  it('requires queue_id and last_event_id', async () => {
    const queueId = await register('mark');
    expect((await api.as('mark').get('/events', { last_event_id: -1 })).body).toEqual({ result: 'error', msg: "Missing 'queue_id' argument", code: 'BAD_REQUEST' });
    expect((await api.as('mark').get('/events', { queue_id: queueId })).body).toEqual({ result: 'error', msg: "Missing 'last_event_id' argument", code: 'BAD_REQUEST' });
  });

  it('filters by event_types and by a narrow', async () => {
    const reactionsOnly = await register('mark', { event_types: ['reaction'] });
    const designOnly = await register('mark', { event_types: ['message'], narrow: [['channel', 'design']] });
    await say('not for either');
    await api.as('olivia').post('/messages', { type: 'channel', to: 'design', topic: 'mockups', content: 'for the narrow' });
    expect((await drain('mark', reactionsOnly)).body.events).toEqual([]);
    const narrowed = (await drain('mark', designOnly)).body.events;
    expect(narrowed.map((e: { message: { content: string } }) => e.message.content)).toEqual(['for the narrow']);
  });

  it('delivers edits, reactions, flag changes and deletions to the queue', async () => {
    const queueId = await register('mark', { event_types: ['update_message', 'reaction', 'update_message_flags', 'delete_message'] });
    const { body } = await say('changing');
    const id = body.id as number;
    await api.as('olivia').patch(`/messages/${id}`, { content: 'changed' });
    await api.as('mia').post(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    await api.as('mark').post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' });
    await api.as('olivia').delete(`/messages/${id}`);
    const events = (await drain('mark', queueId)).body.events;
    expect(events).toEqual([
      expect.objectContaining({ id: 0, type: 'update_message', message_id: id, orig_content: 'changing', content: 'changed' }),
      expect.objectContaining({ id: 1, type: 'reaction', op: 'add', message_id: id, user_id: IDS.mia, emoji_name: 'octopus' }),
      { id: 2, type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [id], all: false },
      { id: 3, type: 'delete_message', message_id: id, message_type: 'stream', stream_id: IDS.general, topic: 'news' },
    ]);
  });

  it('carries a poll in its message, and a vote in it as a submessage event', async () => {
    const queueId = await register('mark', { event_types: ['message', 'submessage'] });
    const id = (await say('/poll Lunch?\nPizza')).body.id as number;
    const vote = JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 });
    expect((await api.as('mia').post('/submessage', { message_id: id, msg_type: 'widget', content: vote })).body).toEqual({ result: 'success', msg: '' });
    const [sent, voted] = (await drain('mark', queueId)).body.events;
    const [widget] = sent.message.submessages;
    expect(widget).toEqual({
      msg_type: 'widget',
      content: JSON.stringify({ widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['Pizza'] } }),
      message_id: id,
      sender_id: IDS.olivia,
      id: widget.id,
    });
    expect(voted).toEqual({ id: 1, type: 'submessage', msg_type: 'widget', message_id: id, submessage_id: widget.id + 1, sender_id: IDS.mia, content: vote });
  });

  it('deletes a queue; later polls get BAD_EVENT_QUEUE_ID', async () => {
    const queueId = await register('mark');
    expect((await api.as('mia').delete('/events', { queue_id: queueId })).body.code).toBe('BAD_EVENT_QUEUE_ID');
    expect((await api.as('mark').delete('/events', { queue_id: queueId })).body).toEqual({ result: 'success', msg: '' });
    expect((await drain('mark', queueId)).body.code).toBe('BAD_EVENT_QUEUE_ID');
  });
});
