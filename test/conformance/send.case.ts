import { expect, it } from 'vitest';
import { caseSuite, IDS, type TestUser } from './harness.ts';

const error = (msg: string) => ({ result: 'error', msg, code: 'BAD_REQUEST' });

export const sendCases = caseSuite('POST /messages', (api) => {
  const send = (user: TestUser, params: Record<string, unknown>) => api.as(user).post('/messages', params);
  const read = (user: TestUser, id: number) => api.as(user).get(`/messages/${id}`, { apply_markdown: false });

  it('stores a channel message and answers with its id', async () => {
    const sent = await send('mark', { type: 'channel', to: 'general', topic: 'lunch', content: 'Pizza?' });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ result: 'success', msg: '', id: expect.any(Number) });
    const shown = await api.as('mia').get(`/messages/${sent.body.id}`);
    expect(shown.body.message).toMatchObject({
      id: sent.body.id,
      sender_id: IDS.mark,
      type: 'stream',
      stream_id: IDS.general,
      display_recipient: 'general',
      subject: 'lunch',
      content: '<p>Pizza?</p>',
      flags: [],
    });
  });

  it('gives ids in increasing order', async () => {
    const first = await send('mark', { type: 'channel', to: 'general', topic: 'order', content: 'one' });
    const second = await send('mia', { type: 'channel', to: 'general', topic: 'order', content: 'two' });
    expect(second.body.id).toBeGreaterThan(first.body.id);
  });

  it('accepts the channel by id, by JSON-quoted name and as a one-element list', async () => {
    for (const to of [String(IDS.general), '"general"', '[1]', '["General"]']) {
      const sent = await send('mark', { type: 'stream', to, topic: 'forms', content: `to ${to}` });
      expect({ to, status: sent.status }).toEqual({ to, status: 200 });
      expect((await read('mark', sent.body.id)).body.message.stream_id).toBe(IDS.general);
    }
  });

  it('flags a mention for the mentioned user only, and leaves the sender’s API message unread', async () => {
    const sent = await send('olivia', { type: 'channel', to: 'general', topic: 'mentions', content: 'Hi @**Mia Member**' });
    expect((await read('mia', sent.body.id)).body.message.flags).toEqual(['mentioned']);
    expect((await read('mona', sent.body.id)).body.message.flags).toEqual([]);
    expect((await read('olivia', sent.body.id)).body.message.flags).toEqual([]);
  });

  it('marks the message read for its sender when read_by_sender is true', async () => {
    const sent = await send('mark', { type: 'channel', to: 'general', topic: 'own', content: 'x', read_by_sender: true });
    expect((await read('mark', sent.body.id)).body.message.flags).toEqual(['read']);
  });

  it('truncates a long topic to 60 characters ending in "..."', async () => {
    const sent = await send('mark', { type: 'channel', to: 'general', topic: 'a'.repeat(80), content: 'x' });
    expect((await read('mark', sent.body.id)).body.message.subject).toBe(`${'a'.repeat(57)}...`);
  });

  it('refuses empty content and a missing topic', async () => {
    const empty = await send('mark', { type: 'channel', to: 'general', topic: 't', content: ' \n ' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual(error('Message must not be empty'));
    const noTopic = await send('mark', { type: 'channel', to: 'general', content: 'x' });
    expect(noTopic.status).toBe(400);
    expect(noTopic.body.msg).toBe('Missing topic');
  });

  it('names an unknown channel by name or by id in STREAM_DOES_NOT_EXIST', async () => {
    const byName = await send('mark', { type: 'channel', to: 'nowhere', topic: 't', content: 'x' });
    expect(byName.body).toEqual({ result: 'error', msg: "Channel 'nowhere' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream: 'nowhere' });
    const byId = await send('mark', { type: 'channel', to: '99', topic: 't', content: 'x' });
    expect(byId.body).toEqual({ result: 'error', msg: "Channel with ID '99' does not exist", code: 'STREAM_DOES_NOT_EXIST', stream_id: 99 });
  });

  it('refuses a private channel to a non-subscriber and a public one to a guest', async () => {
    const admin = await send('adam', { type: 'channel', to: 'secret', topic: 't', content: 'x' });
    expect(admin.status).toBe(400);
    expect(admin.body).toEqual(error("Not authorized to send to channel 'secret'"));
    const guest = await send('gail', { type: 'channel', to: 'design', topic: 't', content: 'x' });
    expect(guest.body).toEqual(error("Not authorized to send to channel 'design'"));
    expect((await send('mia', { type: 'channel', to: 'design', topic: 't', content: 'x' })).status).toBe(200);
  });

  it('lets only administrators post to an announcement channel', async () => {
    const member = await send('mark', { type: 'channel', to: 'announce', topic: 't', content: 'x' });
    expect(member.body).toEqual(error('You do not have permission to post in this channel.'));
    expect((await send('adam', { type: 'channel', to: 'announce', topic: 't', content: 'x' })).status).toBe(200);
  });

  it("refuses the empty topic where the channel's topics policy disables it", async () => {
    const refused = await send('mark', { type: 'channel', to: 'strict', topic: '', content: 'x' });
    expect(refused.status).toBe(400);
    expect(refused.body.msg).toBe('Sending messages to "general chat" is not allowed in this channel.');
  });

  it('sends a direct message by ids, emails or the legacy private type, to one conversation', async () => {
    const ids = new Set<number>();
    for (const [type, to] of [['direct', [IDS.mia]], ['direct', ['mia@zulip.test']], ['direct', 'mia@zulip.test'], ['private', [IDS.mia]]] as const) {
      const sent = await send('mark', { type, to, content: 'hey' });
      expect(sent.status).toBe(200);
      const shown = await read('mia', sent.body.id);
      expect(shown.body.message).toMatchObject({ type: 'private', sender_id: IDS.mark, subject: '' });
      ids.add(sent.body.id);
    }
    expect(ids.size).toBe(4);
    const conversation = await api.as('mia').get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'dm', operand: [IDS.mark] }],
    });
    expect(conversation.body.messages.map((m: { id: number }) => m.id)).toEqual([...ids]);
  });

  it('shows a direct message to its participants only', async () => {
    const sent = await send('mark', { type: 'direct', to: [IDS.mia, IDS.olivia], content: 'group' });
    const shown = await read('olivia', sent.body.id);
    expect(shown.body.message.display_recipient.map((u: { id: number }) => u.id)).toEqual([IDS.olivia, IDS.mark, IDS.mia]);
    expect((await read('adam', sent.body.id)).body).toEqual(error('Invalid message(s)'));
  });

  it('refuses a recipient list mixing ids and emails, and unknown recipients', async () => {
    expect((await send('mark', { type: 'direct', to: [IDS.mia, 'olivia@zulip.test'], content: 'x' })).body.msg).toBe(
      'Recipient lists may contain emails or user IDs, but not both.',
    );
    expect((await send('mark', { type: 'direct', to: [999], content: 'x' })).body).toEqual(error('Invalid user ID 999'));
    expect((await send('mark', { type: 'direct', to: ['who@zulip.test'], content: 'x' })).body).toEqual(error("Invalid email 'who@zulip.test'"));
  });
});
