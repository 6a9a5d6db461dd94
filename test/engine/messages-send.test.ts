import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import type { QueueOptions } from '../../src/engine/events/event-queues.ts';
import { flagList } from '../../src/engine/storage/flags.ts';
import { createTestRealm, openQueue, IDS, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const queueFor = (userId: number, extra: Partial<QueueOptions> = {}) =>
  openQueue(realm.engine, userId, { capabilities: { ...NO_CAPABILITIES, empty_topic_name: true }, ...extra });

const send = (user: Parameters<TestRealm['as']>[0], params: Record<string, unknown>) => realm.as(user).post('/messages', params);

describe('POST /messages to a channel', () => {
  it('stores the message and answers with its id', async () => {
    const { status, body } = await send('mark', { type: 'channel', to: 'general', topic: 'lunch', content: 'Pizza?' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', id: 5 });
    const row = await realm.engine.db.messages.get(5);
    expect(row).toMatchObject({
      sender_id: IDS.mark,
      type: 'stream',
      stream_id: IDS.general,
      topic: 'lunch',
      topic_key: 'lunch',
      content: 'Pizza?',
      rendered_content: '<p>Pizza?</p>',
      timestamp: Date.UTC(2026, 0, 1, 12) / 1000,
    });
  });

  it('accepts the channel by id, by JSON-quoted name and as a one-element list', async () => {
    for (const to of [String(IDS.general), '"general"', '[1]', '["General"]']) {
      const { status, body } = await send('mark', { type: 'stream', to, topic: 't', content: 'x' });
      expect({ to, status }).toEqual({ to, status: 200 });
      expect((await realm.engine.db.messages.get(body.id))?.stream_id).toBe(IDS.general);
    }
  });

  it('gives every active subscriber a flag row, read only for the sender of an interactive client', async () => {
    const { body } = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic: 't', content: 'x', client: 'website' });
    const rows = await realm.engine.db.user_messages.where('message_id').equals(body.id).toArray();
    expect(rows.map((r) => r.user_id).sort()).toEqual([IDS.olivia, IDS.adam, IDS.mona, IDS.mark, IDS.mia, IDS.gail, IDS.bot].sort());
    expect(rows.find((r) => r.user_id === IDS.mark)?.unread).toBeUndefined();
    expect(rows.find((r) => r.user_id === IDS.mia)?.unread).toBe(1);
  });

  it('leaves the message unread for its sender when read_by_sender is false', async () => {
    const { body } = await send('mark', { type: 'channel', to: 'general', topic: 't', content: 'x', client: 'website', read_by_sender: false });
    expect((await realm.engine.db.user_messages.get([IDS.mark, body.id]))?.unread).toBe(1);
  });

  it('sets mentioned, wildcard and group flags from the rendered content', async () => {
    const { body } = await send('olivia', { type: 'channel', to: 'general', topic: 'welcome', content: 'Hi @**Mia Member** and @**all**' });
    const mia = await realm.engine.db.user_messages.get([IDS.mia, body.id]);
    const mona = await realm.engine.db.user_messages.get([IDS.mona, body.id]);
    expect(flagList(mia!.flags)).toEqual(['mentioned', 'stream_wildcard_mentioned', 'wildcard_mentioned']);
    expect(flagList(mona!.flags)).toEqual(['stream_wildcard_mentioned', 'wildcard_mentioned']);
    expect(mia!.mentioned).toBe(1);
  });

  it('flags @**topic** only for users who took part in the topic', async () => {
    const { body } = await send('olivia', { type: 'channel', to: 'general', topic: 'welcome', content: 'ping @**topic**' });
    const mark = await realm.engine.db.user_messages.get([IDS.mark, body.id]);
    const mia = await realm.engine.db.user_messages.get([IDS.mia, body.id]);
    expect(flagList(mark!.flags)).toContain('topic_wildcard_mentioned');
    expect(flagList(mia!.flags)).not.toContain('topic_wildcard_mentioned');
  });

  it('strips the topic and reads "(no topic)" and the display name as the empty topic', async () => {
    for (const topic of ['(no topic)', 'general chat', '  ']) {
      const { body } = await send('mark', { type: 'channel', to: 'general', topic, content: 'x' });
      expect((await realm.engine.db.messages.get(body.id))?.topic).toBe('');
    }
    const { body } = await send('mark', { type: 'channel', to: 'general', topic: '  padded  ', content: 'x' });
    expect((await realm.engine.db.messages.get(body.id))?.topic).toBe('padded');
  });

  it('truncates a long topic to 60 characters ending in "..."', async () => {
    const { body } = await send('mark', { type: 'channel', to: 'general', topic: 'a'.repeat(80), content: 'x' });
    const topic = (await realm.engine.db.messages.get(body.id))!.topic;
    expect(topic).toBe(`${'a'.repeat(57)}...`);
  });

  it('truncates content past max_message_length with a marker', async () => {
    const { body } = await send('mark', { type: 'channel', to: 'general', topic: 't', content: 'b'.repeat(10_050) });
    const content = (await realm.engine.db.messages.get(body.id))!.content;
    expect(content).toHaveLength(10_000);
    expect(content.endsWith('\n[message truncated]')).toBe(true);
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
    const before = await realm.engine.db.messages.count();
    const { status, body } = await send('adam', { type: 'channel', to: 'secret', topic: 't', content: 'x' });
    expect(status).toBe(400);
    expect(body.msg).toBe("Not authorized to send to channel 'secret'");
    expect(await realm.engine.db.messages.count()).toBe(before);
  });

  it('lets a member post to a public channel without subscribing, but not a guest', async () => {
    expect((await send('mia', { type: 'channel', to: 'design', topic: 't', content: 'x' })).status).toBe(200);
    const guest = await send('gail', { type: 'channel', to: 'design', topic: 't', content: 'x' });
    expect(guest.status).toBe(400);
    expect(guest.body.msg).toBe("Not authorized to send to channel 'design'");
  });

  it('enforces an announcement channel: only administrators post', async () => {
    const member = await send('mark', { type: 'channel', to: 'announce', topic: 't', content: 'x' });
    expect(member.body).toEqual({ result: 'error', msg: 'You do not have permission to post in this channel.', code: 'BAD_REQUEST' });
    expect((await send('adam', { type: 'channel', to: 'announce', topic: 't', content: 'x' })).status).toBe(200);
  });

  it("refuses the empty topic where the channel's topics policy disables it", async () => {
    const { status, body } = await send('mark', { type: 'channel', to: 'strict', topic: '', content: 'x' });
    expect(status).toBe(400);
    expect(body.msg).toBe('Sending messages to "general chat" is not allowed in this channel.');
    expect((await send('mark', { type: 'channel', to: 'strict', topic: 'named', content: 'x' })).status).toBe(200);
  });

  it('records the first message id of a channel and tells its viewers', async () => {
    await realm.engine.db.channels.update(IDS.design, { first_message_id: null });
    const queue = queueFor(IDS.mia);
    const { body } = await send('mark', { type: 'channel', to: 'design', topic: 't', content: 'first' });
    expect((await realm.engine.db.channels.get(IDS.design))?.first_message_id).toBe(body.id);
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
      expect((await realm.engine.db.messages.get(body.id))?.dm_key).toBe(`${IDS.mark},${IDS.mia}`);
    }
  });

  it('accepts the legacy "private" type', async () => {
    expect((await send('mark', { type: 'private', to: [IDS.mia], content: 'hey' })).status).toBe(200);
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
    await realm.engine.db.users.update(IDS.mia, { is_active: false });
    const { status, body } = await send('mark', { type: 'direct', to: [IDS.mia], content: 'x' });
    expect(status).toBe(400);
    expect(body.msg).toBe("'mia@zulip.test' is no longer using Zulip.");
  });

  it('gives a group conversation its own recipient, shared by every later message', async () => {
    const first = await send('mark', { type: 'direct', to: [IDS.mia, IDS.olivia], content: 'group' });
    const second = await send('mia', { type: 'direct', to: [IDS.olivia, IDS.mark], content: 'reply' });
    const a = await realm.engine.db.messages.get(first.body.id);
    const b = await realm.engine.db.messages.get(second.body.id);
    expect(a?.dm_key).toBe(`${IDS.olivia},${IDS.mark},${IDS.mia}`);
    expect(b?.recipient_id).toBe(a?.recipient_id);
  });

  it('sends a note to self as a one-participant conversation', async () => {
    const { body } = await send('mark', { type: 'direct', to: [IDS.mark], content: 'remember' });
    const rows = await realm.engine.db.user_messages.where('message_id').equals(body.id).toArray();
    expect(rows.map((r) => r.user_id)).toEqual([IDS.mark]);
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
    const markRow = await realm.engine.db.users.get(IDS.mark);
    expect((event.message as { recipient_id: number }).recipient_id).toBe(markRow?.recipient_id);
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
