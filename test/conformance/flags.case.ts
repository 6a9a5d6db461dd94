import { expect, it } from 'vitest';
import { caseSuite, IDS, type TestUser } from './harness.ts';

const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

export const flagCases = caseSuite('message flags and marking as read', (api) => {
  async function send(topic: string, to = 'general'): Promise<number> {
    const { body } = await api.as('olivia').post('/messages', { type: 'channel', to, topic, content: 'flag me' });
    return body.id as number;
  }
  const flagsOf = async (user: TestUser, id: number): Promise<string[]> => (await api.as(user).get(`/messages/${id}`)).body.message.flags;
  const unreadIds = async (user: TestUser): Promise<number[]> => {
    const { body } = await api.as(user).post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
    const { streams, pms, huddles } = body.unread_msgs;
    return [...streams, ...pms, ...huddles].flatMap((c: { unread_message_ids: number[] }) => c.unread_message_ids).sort((a, b) => a - b);
  };

  it('stars messages, answering only the ones that changed', async () => {
    const id = await send('stars');
    const first = await api.as('mark').post('/messages/flags', { messages: [1, id], op: 'add', flag: 'starred' });
    expect(first.body).toEqual({ result: 'success', msg: '', messages: [1, id] });
    expect((await api.as('mark').post('/messages/flags', { messages: [id, 1], op: 'add', flag: 'starred' })).body.messages).toEqual([]);
    expect(await flagsOf('mark', id)).toEqual(['starred']);
    expect(await flagsOf('mia', id)).toEqual([]);
    const starred = await api.as('mark').get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'is', operand: 'starred' }] });
    expect(starred.body.messages.map((m: { id: number }) => m.id)).toEqual([1, id]);
    await api.as('mark').post('/messages/flags', { messages: [1, id], op: 'remove', flag: 'starred' });
    expect(await flagsOf('mark', id)).toEqual([]);
  });

  it('marks read and unread, and the unread counts follow', async () => {
    const id = await send('reading');
    expect(await unreadIds('mia')).toContain(id);
    await api.as('mia').post('/messages/flags', { messages: [id], op: 'add', flag: 'read' });
    expect(await flagsOf('mia', id)).toEqual(['read']);
    expect(await unreadIds('mia')).not.toContain(id);
    await api.as('mia').post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' });
    expect(await unreadIds('mia')).toContain(id);
  });

  it('refuses server-managed and unknown flags, a bad op and invisible messages, changing nothing', async () => {
    expect((await api.as('mark').post('/messages/flags', { messages: [1], op: 'add', flag: 'mentioned' })).body).toEqual(error("Flag not editable: 'mentioned'"));
    expect((await api.as('mark').post('/messages/flags', { messages: [1], op: 'add', flag: 'bogus' })).body).toEqual(error("Invalid flag: 'bogus'"));
    expect((await api.as('mark').post('/messages/flags', { messages: [1], op: 'toggle', flag: 'starred' })).body).toEqual(error('Invalid op'));
    expect((await api.as('mia').post('/messages/flags', { messages: [1, 3], op: 'add', flag: 'starred' })).body).toEqual(error('Invalid message(s)'));
    expect(await flagsOf('mia', 1)).not.toContain('starred');
    expect((await api.as('mark').post('/messages/flags', { messages: '1,2', op: 'add', flag: 'starred' })).body).toEqual(error('messages is not valid JSON'));
  });

  it('updates a flag across a narrow and reports the range', async () => {
    const ids = [await send('ranged'), await send('ranged')];
    const { body } = await api.as('mark').post('/messages/flags/narrow', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 10,
      narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'ranged' }],
      op: 'add',
      flag: 'read',
    });
    expect(body).toEqual({
      result: 'success',
      msg: '',
      processed_count: 2,
      updated_count: 2,
      first_processed_id: ids[0],
      last_processed_id: ids[1],
      found_oldest: true,
      found_newest: true,
    });
    expect(await flagsOf('mark', ids[1])).toEqual(['read']);
  });

  it('marks one topic read, case-insensitively, and refuses a topic without messages', async () => {
    const lunch = await send('Lunch');
    const other = await send('other');
    expect((await api.as('mark').post('/mark_topic_as_read', { stream_id: IDS.general, topic_name: 'lunch' })).body).toEqual({ result: 'success', msg: '' });
    expect(await flagsOf('mark', lunch)).toEqual(['read']);
    expect(await flagsOf('mark', other)).toEqual([]);
    expect((await api.as('mark').post('/mark_topic_as_read', { stream_id: IDS.general, topic_name: 'nowhere' })).body).toEqual(error("No such topic 'nowhere'"));
  });

  it('marks one channel read, and refuses unknown or hidden channels', async () => {
    const inGeneral = await send('by channel');
    const inDesign = await send('by channel', 'design');
    expect((await api.as('mark').post('/mark_stream_as_read', { stream_id: IDS.general })).body).toEqual({ result: 'success', msg: '' });
    expect(await flagsOf('mark', inGeneral)).toEqual(['read']);
    expect(await flagsOf('mark', inDesign)).toEqual([]);
    expect((await api.as('mark').post('/mark_stream_as_read', { stream_id: 99 })).body).toEqual({
      result: 'error',
      msg: "Channel with ID '99' does not exist",
      code: 'STREAM_DOES_NOT_EXIST',
      stream_id: 99,
    });
    expect((await api.as('mia').post('/mark_stream_as_read', { stream_id: IDS.secret })).body).toMatchObject({ code: 'STREAM_DOES_NOT_EXIST' });
  });

  it('marks everything read, leaving no unread messages', async () => {
    await send('all of it');
    await api.as('olivia').post('/messages', { type: 'direct', to: [IDS.mark], content: 'and a DM' });
    expect((await unreadIds('mark')).length).toBeGreaterThan(0);
    expect((await api.as('mark').post('/mark_all_as_read')).body).toEqual({ result: 'success', msg: '', complete: true });
    expect(await unreadIds('mark')).toEqual([]);
  });
});
