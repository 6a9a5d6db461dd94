import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QueueOptions } from '../../src/engine/events/event-queue.ts';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, openQueue, IDS, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const queueFor = (userId: number, extra: Partial<QueueOptions> = {}) => openQueue(realm.engine, userId, extra);

const now = () => realm.engine.nowSeconds();

/** Sends a fresh message (inside every time limit) and returns its id. */
async function send(user: TestUser, params: Record<string, unknown>): Promise<number> {
  const { body } = await realm.as(user).post('/messages', params);
  return body.id as number;
}

const edit = (user: TestUser, id: number, params: Record<string, unknown>) => realm.as(user).patch(`/messages/${id}`, params);

const EDITED = { status: 200, body: { result: 'success', msg: '', detached_uploads: [] } };

/** The message as `user` reads it through GET /messages/{id}: its Markdown and its wire object. */
async function fetchMessage(id: number, user: TestUser = 'mark'): Promise<{ raw_content: string; message: Record<string, any> }> {
  const { status, body } = await realm.as(user).get(`/messages/${id}`);
  expect(status).toBe(200);
  return body as { raw_content: string; message: Record<string, any> };
}

/** The ids of the messages `user` finds with `narrow`. */
async function idsIn(user: TestUser, narrow: unknown[]): Promise<number[]> {
  const { body } = await realm.as(user).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
  return body.messages.map((m: { id: number }) => m.id);
}

// No endpoint changes realm settings yet, so the tests that need one write it to storage.

describe('PATCH /messages/{id}: content edits', () => {
  it('lets the sender edit a recent message, re-rendering it and recording the edit', async () => {
    const id = await send('mark', { type: 'channel', to: 'general', topic: 'lunch', content: 'hello' });
    const { status, body } = await edit('mark', id, { content: '**bold** move' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: 'success', msg: '', detached_uploads: [] });
    const { raw_content, message } = await fetchMessage(id, 'mia');
    expect(raw_content).toBe('**bold** move');
    expect(message).toMatchObject({ content: '<p><strong>bold</strong> move</p>', last_edit_timestamp: now() });
    expect(message.edit_history).toEqual([{ user_id: IDS.mark, timestamp: now(), prev_content: 'hello', prev_rendered_content: '<p>hello</p>' }]);
    expect(message).not.toHaveProperty('last_moved_timestamp');
    // Search finds the message by its new words only.
    expect(await idsIn('mia', [{ operator: 'search', operand: 'bold' }])).toEqual([id]);
    expect(await idsIn('mia', [{ operator: 'search', operand: 'hello' }])).toEqual([]);
  });

  it('sends update_message with the old and new content to everyone holding the message', async () => {
    const id = await send('mark', { type: 'channel', to: 'general', topic: 'lunch', content: 'hello' });
    const mia = queueFor(IDS.mia);
    const design = queueFor(IDS.olivia, { eventTypes: new Set(['update_message']) });
    await edit('mark', id, { content: 'hello again' });
    expect(mia.events).toEqual([
      {
        id: 0,
        type: 'update_message',
        user_id: IDS.mark,
        edit_timestamp: now(),
        message_id: id,
        message_ids: [id],
        rendering_only: false,
        orig_content: 'hello',
        orig_rendered_content: '<p>hello</p>',
        content: 'hello again',
        rendered_content: '<p>hello again</p>',
        is_me_message: false,
        stream_name: 'general',
        stream_id: IDS.general,
        flags: [],
      },
    ]);
    expect(design.events).toHaveLength(1);
  });

  it('recomputes mention flags when an edit adds or removes a mention', async () => {
    const id = await send('mark', { type: 'channel', to: 'general', topic: 'lunch', content: 'hello' });
    const mia = queueFor(IDS.mia);
    await edit('mark', id, { content: 'hello @**Mia Member**' });
    expect(mia.events[0]).toMatchObject({ type: 'update_message', flags: ['mentioned'] });
    expect((await fetchMessage(id, 'mia')).message.flags).toEqual(['mentioned']);
    expect(await idsIn('mia', [{ operator: 'is', operand: 'mentioned' }])).toEqual([id]);
    expect(await idsIn('mia', [{ operator: 'is', operand: 'unread' }])).toContain(id);
    await edit('mark', id, { content: 'hello @**all**' });
    expect(mia.events[1]).toMatchObject({ flags: ['stream_wildcard_mentioned', 'wildcard_mentioned'] });
    await edit('mark', id, { content: 'hello' });
    expect(mia.events[2]).toMatchObject({ flags: [] });
    expect((await fetchMessage(id, 'mia')).message.flags).toEqual([]);
    expect(await idsIn('mia', [{ operator: 'is', operand: 'mentioned' }])).toEqual([]);
    expect(await idsIn('mia', [{ operator: 'is', operand: 'unread' }])).toContain(id);
  });

  it('edits a direct message for both participants, without channel fields', async () => {
    const id = await send('mark', { type: 'direct', to: [IDS.mia], content: 'psst' });
    const mia = queueFor(IDS.mia);
    const olivia = queueFor(IDS.olivia);
    await edit('mark', id, { content: 'psst!' });
    expect(mia.events).toEqual([
      {
        id: 0,
        type: 'update_message',
        user_id: IDS.mark,
        edit_timestamp: now(),
        message_id: id,
        message_ids: [id],
        rendering_only: false,
        orig_content: 'psst',
        orig_rendered_content: '<p>psst</p>',
        content: 'psst!',
        rendered_content: '<p>psst!</p>',
        is_me_message: false,
        flags: [],
      },
    ]);
    expect(olivia.events).toEqual([]);
  });

  it('stores an edit to empty content as "(deleted)", as upstream does', async () => {
    const id = await send('mark', { type: 'channel', to: 'general', topic: 'lunch', content: 'oops' });
    await edit('mark', id, { content: '   ' });
    expect(await fetchMessage(id)).toMatchObject({ raw_content: '(deleted)', message: { content: '<p>(deleted)</p>' } });
  });

  it('allows 20 seconds of grace past the content edit time limit', async () => {
    const id = await send('mark', { type: 'channel', to: 'general', topic: 'lunch', content: 'hello' });
    realm.clock.advance(620_000);
    expect(await edit('mark', id, { content: 'just in time' })).toEqual(EDITED);
    realm.clock.advance(1_000);
    const { status, body } = await edit('mark', id, { content: 'too late' });
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'The time limit for editing this message has passed', code: 'BAD_REQUEST' });
    expect((await fetchMessage(id)).raw_content).toBe('just in time');
  });

  it('has no content time limit when the realm sets none', async () => {
    await realm.as('olivia').patch('/realm', { message_content_edit_limit_seconds: 'unlimited' });
    expect(await edit('mark', 2, { content: 'edited much later' })).toEqual(EDITED);
    expect((await fetchMessage(2)).raw_content).toBe('edited much later');
  });
});

describe('PATCH /messages/{id}: refusals', () => {
  it("refuses editing someone else's content, even for an owner", async () => {
    const id = await send('mark', { type: 'channel', to: 'general', topic: 'lunch', content: 'mine' });
    await expectRefused(realm, () => edit('olivia', id, { content: 'hijacked' }), {
      result: 'error',
      msg: "You don't have permission to edit this message",
      code: 'BAD_REQUEST',
    });
    expect((await fetchMessage(id)).raw_content).toBe('mine');
  });

  it('refuses content edits when the organization turned message editing off', async () => {
    const id = await send('mark', { type: 'channel', to: 'general', topic: 'lunch', content: 'mine' });
    await realm.as('olivia').patch('/realm', { allow_message_editing: false });
    const { body } = await edit('mark', id, { content: 'changed' });
    expect(body).toEqual({ result: 'error', msg: 'Your organization has turned off message editing', code: 'BAD_REQUEST' });
    expect((await fetchMessage(id)).raw_content).toBe('mine');
  });

  it('refuses a request that changes nothing', async () => {
    expect((await edit('mark', 2, {})).body).toEqual({ result: 'error', msg: 'Nothing to change', code: 'BAD_REQUEST' });
    expect((await edit('mark', 2, { topic: ' welcome ' })).body).toEqual({ result: 'error', msg: 'Nothing to change', code: 'BAD_REQUEST' });
    expect((await edit('mark', 2, { stream_id: IDS.general })).body).toEqual({ result: 'error', msg: 'Nothing to change', code: 'BAD_REQUEST' });
  });

  it('refuses topics and channel moves for direct messages', async () => {
    expect((await edit('olivia', 4, { topic: 'dm topic' })).body).toEqual({
      result: 'error',
      msg: 'Direct messages cannot have topics.',
      code: 'BAD_REQUEST',
    });
    expect((await edit('olivia', 4, { stream_id: IDS.general })).body).toEqual({
      result: 'error',
      msg: 'Direct messages cannot be moved to channels.',
      code: 'BAD_REQUEST',
    });
    expect((await fetchMessage(4, 'olivia')).message).toMatchObject({ type: 'private', subject: '' });
  });

  it('refuses a propagate_mode other than change_one without a topic or channel change', async () => {
    const id = await send('mark', { type: 'channel', to: 'general', topic: 'lunch', content: 'hello' });
    const { body } = await edit('mark', id, { content: 'x', propagate_mode: 'change_all' });
    expect(body).toEqual({ result: 'error', msg: 'Invalid propagate_mode without topic edit', code: 'BAD_REQUEST' });
  });

  it('refuses an unknown propagate_mode', async () => {
    const { body } = await edit('mark', 2, { topic: 'x', propagate_mode: 'change_some' });
    expect(body).toEqual({ result: 'error', msg: 'Invalid propagate_mode', code: 'BAD_REQUEST' });
  });

  it('refuses changing content and channel at once', async () => {
    const id = await send('mark', { type: 'channel', to: 'general', topic: 'lunch', content: 'hello' });
    const { body } = await edit('mark', id, { content: 'x', stream_id: IDS.design });
    expect(body).toEqual({ result: 'error', msg: 'Cannot change message content while changing channel', code: 'BAD_REQUEST' });
    expect(await fetchMessage(id)).toMatchObject({ raw_content: 'hello', message: { stream_id: IDS.general } });
  });

  it('answers "Invalid message(s)" for messages the caller cannot see or that do not exist', async () => {
    expect((await edit('mia', 3, { content: 'x' })).body).toEqual({ result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
    expect((await edit('mark', 999, { content: 'x' })).body).toEqual({ result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
  });

});
