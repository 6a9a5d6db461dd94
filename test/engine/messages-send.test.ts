import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import type { QueueOptions } from '../../src/engine/events/event-queue.ts';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, openQueue, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const queueFor = (userId: number, extra: Partial<QueueOptions> = {}) =>
  openQueue(realm.engine, userId, { capabilities: { ...NO_CAPABILITIES, empty_topic_name: true }, ...extra });

type User = Parameters<TestRealm['as']>[0];
const send = (user: User, params: Record<string, unknown>) => realm.as(user).post('/messages', params);

/** One message as `user` reads it through GET /messages/{id} (the empty topic shown as itself). */
async function fetchMessage(user: User, id: number): Promise<{ raw_content: string; message: Record<string, any> }> {
  const { status, body } = await realm.as(user).get(`/messages/${id}`, { allow_empty_topic_name: true });
  expect(status).toBe(200);
  return body as { raw_content: string; message: Record<string, any> };
}

const flagsOf = async (user: User, id: number) => (await fetchMessage(user, id)).message.flags;

/** The ids of the messages `user` finds with `narrow`, newest last. */
async function idsIn(user: User, narrow: unknown[]): Promise<number[]> {
  const { body } = await realm.as(user).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
  return body.messages.map((m: { id: number }) => m.id);
}

/** A queue for every user of the realm, to see who receives a message. */
const everyoneQueues = () =>
  Object.fromEntries((['olivia', 'adam', 'mona', 'mark', 'mia', 'gail', 'bot'] as const).map((u) => [u, queueFor(IDS[u])]));
const receivers = (queues: Record<string, { events: { type: string }[] }>) =>
  Object.entries(queues)
    .filter(([, q]) => q.events.some((e) => e.type === 'message'))
    .map(([u]) => u)
    .sort();

describe('POST /messages to a channel', () => {
  it('stores the message and answers with its id', async () => {
    const { status, body } = await send('mark', { type: 'channel', to: 'general', topic: 'lunch', content: 'Pizza?' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', id: 5 });
    expect(await realm.as('mark').get('/messages/5')).toEqual({
      status: 200,
      body: {
        result: 'success',
        msg: '',
        raw_content: 'Pizza?',
        message: {
          id: 5,
          sender_id: IDS.mark,
          sender_full_name: 'Mark Member',
          sender_email: 'mark@zulip.test',
          sender_realm_str: 'zulip',
          avatar_url: expect.stringMatching(new RegExp(`^/api/v1/avatar/${IDS.mark}\\?v=1&k=[a-z2-7]{24}$`)),
          client: 'API',
          content: '<p>Pizza?</p>',
          content_type: 'text/html',
          is_me_message: false,
          timestamp: Date.UTC(2026, 0, 1, 12) / 1000,
          reactions: [],
          submessages: [],
          type: 'stream',
          stream_id: IDS.general,
          display_recipient: 'general',
          recipient_id: 10,
          subject: 'lunch',
          topic_links: [],
          flags: [],
        },
      },
    });
    // The topic is found case-insensitively.
    expect(await idsIn('mia', [{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'LUNCH' }])).toEqual([5]);
  });

  it('accepts the channel by id, by JSON-quoted name and as a one-element list', async () => {
    for (const to of [String(IDS.general), '"general"', '[1]', '["General"]']) {
      const { status, body } = await send('mark', { type: 'stream', to, topic: 't', content: 'x' });
      expect({ to, status }).toEqual({ to, status: 200 });
      const { message } = await fetchMessage('mark', body.id);
      expect({ to, stream_id: message.stream_id, display_recipient: message.display_recipient }).toEqual({
        to,
        stream_id: IDS.general,
        display_recipient: 'general',
      });
    }
  });

  it('gives every active subscriber the message, read only for the sender of an interactive client', async () => {
    const queues = everyoneQueues();
    const { body } = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 't', content: 'x', client: 'website' });
    expect(receivers(queues)).toEqual(['adam', 'bot', 'gail', 'mark', 'mia', 'mona', 'olivia']);
    expect(await flagsOf('mark', body.id)).toEqual(['read']);
    expect(await flagsOf('mia', body.id)).toEqual([]);
    expect(await idsIn('mia', [{ operator: 'is', operand: 'unread' }])).toContain(body.id);
    expect(await idsIn('mark', [{ operator: 'is', operand: 'unread' }])).not.toContain(body.id);
  });

  it('leaves the message unread for its sender when read_by_sender is false', async () => {
    const { body } = await send('mark', { type: 'channel', to: 'general', topic: 't', content: 'x', client: 'website', read_by_sender: false });
    expect(await flagsOf('mark', body.id)).toEqual([]);
    expect(await idsIn('mark', [{ operator: 'is', operand: 'unread' }])).toContain(body.id);
  });

  it('sets mentioned, wildcard and group flags from the rendered content', async () => {
    const { body } = await send('olivia', { type: 'channel', to: 'general', topic: 'welcome', content: 'Hi @**Mia Member** and @**all**' });
    expect(await flagsOf('mia', body.id)).toEqual(['mentioned', 'stream_wildcard_mentioned', 'wildcard_mentioned']);
    expect(await flagsOf('mona', body.id)).toEqual(['stream_wildcard_mentioned', 'wildcard_mentioned']);
    expect(await idsIn('mia', [{ operator: 'is', operand: 'mentioned' }])).toEqual([body.id]);
  });

  it('flags @**topic** only for users who took part in the topic', async () => {
    const { body } = await send('olivia', { type: 'channel', to: 'general', topic: 'welcome', content: 'ping @**topic**' });
    expect(await flagsOf('mark', body.id)).toEqual(['topic_wildcard_mentioned', 'wildcard_mentioned']);
    expect(await flagsOf('mia', body.id)).toEqual([]);
  });

  it('strips the topic and reads "(no topic)" and the display name as the empty topic', async () => {
    for (const topic of ['(no topic)', 'general chat', '  ']) {
      const { body } = await send('mark', { type: 'channel', to: 'general', topic, content: 'x' });
      expect({ topic, subject: (await fetchMessage('mark', body.id)).message.subject }).toEqual({ topic, subject: '' });
    }
    const { body } = await send('mark', { type: 'channel', to: 'general', topic: '  padded  ', content: 'x' });
    expect((await fetchMessage('mark', body.id)).message.subject).toBe('padded');
  });

  it('truncates a long topic to 60 characters ending in "..."', async () => {
    const { body } = await send('mark', { type: 'channel', to: 'general', topic: 'a'.repeat(80), content: 'x' });
    expect((await fetchMessage('mark', body.id)).message.subject).toBe(`${'a'.repeat(57)}...`);
  });

  it('counts a topic in characters, as upstream does, and never cuts an emoji in half', async () => {
    // 60 emoji are 120 UTF-16 units but 60 characters: kept whole.
    const sixty = await send('mark', { type: 'channel', to: 'general', topic: '😀'.repeat(60), content: 'x' });
    expect((await fetchMessage('mark', sixty.body.id)).message.subject).toBe('😀'.repeat(60));
    // Past 60 characters the cut falls between characters: 56 letters and one emoji, then "...".
    const long = await send('mark', { type: 'channel', to: 'general', topic: `${'a'.repeat(56)}${'😀'.repeat(10)}`, content: 'x' });
    expect((await fetchMessage('mark', long.body.id)).message.subject).toBe(`${'a'.repeat(56)}😀...`);
  });

  it('counts content in characters and cuts it between them', async () => {
    const { body } = await send('mark', { type: 'channel', to: 'general', topic: 't', content: `a${'😀'.repeat(10_050)}` });
    const content = (await fetchMessage('mark', body.id)).raw_content;
    expect(content).toBe(`a${'😀'.repeat(10_000 - '\n[message truncated]'.length - 1)}\n[message truncated]`);
  });

  it('truncates content past max_message_length with a marker', async () => {
    const { body } = await send('mark', { type: 'channel', to: 'general', topic: 't', content: 'b'.repeat(10_050) });
    const content = (await fetchMessage('mark', body.id)).raw_content;
    expect(content).toBe(`${'b'.repeat(10_000 - '\n[message truncated]'.length)}\n[message truncated]`);
  });

  it('refuses empty content', async () => {
    const { status, body } = await send('mark', { type: 'channel', to: 'general', topic: 't', content: ' \n ' });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'Message must not be empty', code: 'BAD_REQUEST' });
  });

  it('refuses a missing topic for a channel message', async () => {
    const { status, body } = await send('mark', { type: 'channel', to: 'general', content: 'x' });
    expect(status).toBe(400);
    expect(body.msg).toBe('Missing topic');
  });


  it('refuses a private channel to a non-subscriber, even an administrator, and writes nothing', async () => {
    await expectRefused(realm, () => send('adam', { type: 'channel', to: 'secret', topic: 't', content: 'x' }), {
      result: 'error',
      msg: "Not authorized to send to channel 'secret'",
      code: 'BAD_REQUEST',
    });
  });

  it('lets a member post to a public channel without subscribing, but not a guest', async () => {
    expect(await send('mia', { type: 'channel', to: 'design', topic: 't', content: 'x' })).toEqual({
      status: 200,
      body: { result: 'success', msg: '', id: 5 },
    });
    expect(await idsIn('mia', [{ operator: 'channel', operand: 'design' }])).toEqual([5]);
    const guest = await send('gail', { type: 'channel', to: 'design', topic: 't', content: 'x' });
    expect(guest.status).toBe(400);
    expect(guest.body.msg).toBe("Not authorized to send to channel 'design'");
  });

  it('enforces an announcement channel: only administrators post', async () => {
    const member = await send('mark', { type: 'channel', to: 'announce', topic: 't', content: 'x' });
    expect(member.body).toEqual({ result: 'error', msg: 'You do not have permission to post in this channel.', code: 'BAD_REQUEST' });
    expect(await send('adam', { type: 'channel', to: 'announce', topic: 't', content: 'x' })).toEqual({
      status: 200,
      body: { result: 'success', msg: '', id: 5 },
    });
    expect(await idsIn('adam', [{ operator: 'channel', operand: 'announce' }])).toEqual([5]);
  });

  it("refuses the empty topic where the channel's topics policy disables it", async () => {
    const { status, body } = await send('mark', { type: 'channel', to: 'strict', topic: '', content: 'x' });
    expect(status).toBe(400);
    expect(body.msg).toBe('Sending messages to "general chat" is not allowed in this channel.');
    expect(await send('mark', { type: 'channel', to: 'strict', topic: 'named', content: 'x' })).toEqual({
      status: 200,
      body: { result: 'success', msg: '', id: 5 },
    });
    expect(await idsIn('mark', [{ operator: 'channel', operand: 'strict' }, { operator: 'topic', operand: 'named' }])).toEqual([5]);
  });

  it('records the first message id of a channel and tells its viewers', async () => {
    // The scenario's seeding sets first_message_id; the API cannot clear it again.
    await realm.engine.db.channels.update(IDS.design, { first_message_id: null });
    const queue = queueFor(IDS.mia);
    const { body } = await send('mark', { type: 'channel', to: 'design', topic: 't', content: 'first' });
    expect((await realm.as('mia').get(`/streams/${IDS.design}`)).body.stream.first_message_id).toBe(body.id);
    expect(queue.events.find((e) => e.type === 'stream')).toEqual({
      type: 'stream',
      op: 'update',
      stream_id: IDS.design,
      name: 'design',
      property: 'first_message_id',
      value: body.id,
      id: 0,
    });
  });
});

describe('POST /messages directly', () => {
  it('sends to users by id list, by email list and by comma-separated emails', async () => {
    for (const to of [[IDS.mia], ['mia@zulip.test'], 'mia@zulip.test', `${IDS.mia}`]) {
      const { status, body } = await send('mark', { type: 'direct', to, content: 'hey' });
      expect(status).toBe(200);
      const recipients = (await fetchMessage('mark', body.id)).message.display_recipient.map((u: { id: number }) => u.id);
      expect({ to, recipients }).toEqual({ to, recipients: [IDS.mark, IDS.mia] });
    }
  });

  it('accepts the legacy "private" type', async () => {
    expect(await send('mark', { type: 'private', to: [IDS.mia], content: 'hey' })).toEqual({
      status: 200,
      body: { result: 'success', msg: '', id: 5 },
    });
    const { message } = await fetchMessage('mia', 5);
    expect({ type: message.type, recipients: message.display_recipient.map((u: { id: number }) => u.id) }).toEqual({
      type: 'private',
      recipients: [IDS.mark, IDS.mia],
    });
  });

  it('refuses a recipient list mixing ids and emails', async () => {
    const { body } = await send('mark', { type: 'direct', to: [IDS.mia, 'olivia@zulip.test'], content: 'x' });
    expect(body.msg).toBe('Recipient lists may contain emails or user IDs, but not both.');
  });

  it('refuses unknown recipients by id and by email', async () => {
    expect((await send('mark', { type: 'direct', to: [999], content: 'x' })).body.msg).toBe('Invalid user ID 999');
    expect((await send('mark', { type: 'direct', to: ['who@zulip.test'], content: 'x' })).body.msg).toBe("Invalid email 'who@zulip.test'");
  });

  it('refuses a deactivated recipient', async () => {
    expect((await realm.as('adam').delete(`/users/${IDS.mia}`)).status).toBe(200);
    const { status, body } = await send('mark', { type: 'direct', to: [IDS.mia], content: 'x' });
    expect(status).toBe(400);
    expect(body.msg).toBe("'mia@zulip.test' is no longer using Zulip.");
  });

  it('gives a group conversation its own recipient, shared by every later message', async () => {
    const first = await send('mark', { type: 'direct', to: [IDS.mia, IDS.olivia], content: 'group' });
    const second = await send('mia', { type: 'direct', to: [IDS.olivia, IDS.mark], content: 'reply' });
    const a = (await fetchMessage('olivia', first.body.id)).message;
    const b = (await fetchMessage('olivia', second.body.id)).message;
    expect(a.display_recipient.map((u: { id: number }) => u.id)).toEqual([IDS.olivia, IDS.mark, IDS.mia]);
    expect(b.display_recipient).toEqual(a.display_recipient);
    expect(b.recipient_id).toBe(a.recipient_id);
    // Its own recipient: not any participant's personal one (a self-note carries the personal one).
    for (const user of ['olivia', 'mark', 'mia'] as const) {
      const note = await send(user, { type: 'direct', to: [IDS[user]], content: 'note' });
      expect((await fetchMessage(user, note.body.id)).message.recipient_id).not.toBe(a.recipient_id);
    }
  });

  it('sends a note to self as a one-participant conversation', async () => {
    const queues = everyoneQueues();
    const { body } = await send('mark', { type: 'direct', to: [IDS.mark], content: 'remember' });
    expect(receivers(queues)).toEqual(['mark']);
    expect((await fetchMessage('mark', body.id)).message.display_recipient.map((u: { id: number }) => u.id)).toEqual([IDS.mark]);
  });
});

describe('message events', () => {
  it('delivers a message event with per-user flags to every recipient queue', async () => {
    const markQueue = queueFor(IDS.mark);
    const miaQueue = queueFor(IDS.mia);
    const outsider = queueFor(IDS.gail);
    const { body } = await realm.as('mark').post('/messages', { type: 'direct', to: [IDS.mia], content: 'hello @**Mia Member**', client: 'website' });
    expect(outsider.events).toEqual([]);
    expect(miaQueue.events).toHaveLength(1);
    const event = miaQueue.events[0];
    expect(event.flags).toEqual(['mentioned']);
    expect(markQueue.events[0].flags).toEqual(['read']);
    expect(event.message).toMatchObject({
      id: body.id,
      type: 'private',
      sender_id: IDS.mark,
      sender_email: 'mark@zulip.test',
      sender_full_name: 'Mark Member',
      content: '<p>hello <span class="user-mention" data-user-id="12">@Mia Member</span></p>',
      content_type: 'text/html',
      subject: '',
      client: 'website',
      reactions: [],
      submessages: [],
      display_recipient: [
        { id: IDS.mark, email: 'mark@zulip.test', full_name: 'Mark Member', is_mirror_dummy: false },
        { id: IDS.mia, email: 'mia@zulip.test', full_name: 'Mia Member', is_mirror_dummy: false },
      ],
    });
    // From Mia's side a 1:1 conversation is addressed by Mark's personal recipient.
    // A note to self is addressed by Mark's personal recipient too.
    const note = await send('mark', { type: 'direct', to: [IDS.mark], content: 'note' });
    const personal = (await fetchMessage('mark', note.body.id)).message.recipient_id;
    expect((event.message as { recipient_id: number }).recipient_id).toBe(personal);
    expect((markQueue.events[0].message as { recipient_id: number }).recipient_id).not.toBe(personal);
  });

  it('sends raw Markdown to queues registered without apply_markdown', async () => {
    const queue = queueFor(IDS.mia, { applyMarkdown: false });
    await send('mark', { type: 'channel', to: 'general', topic: 't', content: '**bold**' });
    expect(queue.events[0].message).toMatchObject({ content: '**bold**', content_type: 'text/x-markdown' });
  });

  it('shows the empty topic by its display name to queues without the empty_topic_name capability', async () => {
    const old = queueFor(IDS.mia, { capabilities: NO_CAPABILITIES });
    const modern = queueFor(IDS.mark);
    await send('mark', { type: 'channel', to: 'general', topic: '', content: 'x' });
    expect((old.events[0].message as { subject: string }).subject).toBe('general chat');
    expect((modern.events[0].message as { subject: string }).subject).toBe('');
  });

  it('echoes local_id as local_message_id only to the sending queue', async () => {
    const sending = queueFor(IDS.mark);
    const otherTab = queueFor(IDS.mark);
    await send('mark', { type: 'channel', to: 'general', topic: 't', content: 'x', queue_id: sending.id, local_id: '100.01' });
    expect(sending.events[0].local_message_id).toBe('100.01');
    expect(otherTab.events[0]).not.toHaveProperty('local_message_id');
  });

  it('hides real emails from viewers the realm setting excludes', async () => {
    // No endpoint changes realm settings yet.
    await realm.engine.db.realm.update(1, { email_address_visibility: 3 });
    const memberQueue = queueFor(IDS.mia);
    const adminQueue = queueFor(IDS.adam);
    await send('mark', { type: 'channel', to: 'general', topic: 't', content: 'x' });
    expect((memberQueue.events[0].message as { sender_email: string }).sender_email).toBe(`user${IDS.mark}@zulip.test`);
    expect((adminQueue.events[0].message as { sender_email: string }).sender_email).toBe('mark@zulip.test');
  });

  it('delivers nothing when the send is refused', async () => {
    const queue = queueFor(IDS.mark);
    await send('mark', { type: 'channel', to: 'announce', topic: 't', content: 'x' });
    expect(queue.events).toEqual([]);
  });
});
