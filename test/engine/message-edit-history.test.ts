import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { htmlDiff } from '../../src/engine/markdown/html-diff.ts';
import { createTestRealm, IDS, TEST_SCENARIO, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const now = () => realm.engine.nowSeconds();
const THANKS_HTML = `<p>Thanks <span class="user-mention" data-user-id="${IDS.olivia}">@Olivia Owner</span></p>`;
const history = (id: number, params: Record<string, unknown> = {}) => realm.as('mark').get(`/messages/${id}/history`, params);

async function sendFresh(content: string, topic = 'lunch'): Promise<number> {
  const { body } = await realm.as('mark').post('/messages', { type: 'channel', to: 'general', topic, content });
  return body.id as number;
}

describe('GET /messages/{id}/history', () => {
  it('returns only the original snapshot for a message never edited', async () => {
    const { status, body } = await history(2);
    expect(status).toBe(200);
    expect(body).toEqual({
      result: 'success',
      msg: '',
      message_history: [
        {
          content: 'Thanks @**Olivia Owner**',
          rendered_content: THANKS_HTML,
          timestamp: 1767225060,
          topic: 'welcome',
          user_id: IDS.mark,
        },
      ],
    });
  });

  it('lists snapshots oldest first, with prev fields and an HTML diff for content edits', async () => {
    const id = await sendFresh('hello');
    const sent = now();
    realm.clock.advance(30_000);
    await realm.as('mark').patch(`/messages/${id}`, { content: 'hello world' });
    const contentEdit = now();
    realm.clock.advance(30_000);
    await realm.as('mark').patch(`/messages/${id}`, { topic: 'dinner' });
    const topicEdit = now();

    const { body } = await history(id);
    expect(body.message_history).toEqual([
      { content: 'hello', rendered_content: '<p>hello</p>', timestamp: sent, topic: 'lunch', user_id: IDS.mark },
      {
        content: 'hello world',
        rendered_content: '<p>hello world</p>',
        timestamp: contentEdit,
        topic: 'lunch',
        user_id: IDS.mark,
        prev_content: 'hello',
        prev_rendered_content: '<p>hello</p>',
        content_html_diff: htmlDiff('<p>hello</p>', '<p>hello world</p>'),
      },
      {
        content: 'hello world',
        rendered_content: '<p>hello world</p>',
        timestamp: topicEdit,
        topic: 'dinner',
        prev_topic: 'lunch',
        user_id: IDS.mark,
      },
    ]);
  });

  it('records channel moves with prev_stream and stream', async () => {
    await realm.as('mark').patch('/messages/2', { stream_id: IDS.design });
    const { body } = await history(2);
    expect(body.message_history[1]).toEqual({
      content: 'Thanks @**Olivia Owner**',
      rendered_content: THANKS_HTML,
      timestamp: now(),
      topic: 'welcome',
      user_id: IDS.mark,
      prev_stream: IDS.general,
      stream: IDS.design,
    });
  });

  it("shows the empty topic as the realm's display name unless allow_empty_topic_name is set", async () => {
    await realm.as('mark').patch('/messages/2', { topic: '' });
    const shown = (await history(2)).body.message_history;
    expect(shown.map((s: { topic: string }) => s.topic)).toEqual(['welcome', 'general chat']);
    const raw = (await history(2, { allow_empty_topic_name: true })).body.message_history;
    expect(raw[1]).toMatchObject({ topic: '', prev_topic: 'welcome' });
  });

  it('refuses when the organization disabled edit history', async () => {
    // No endpoint changes realm settings yet.
    await realm.as('olivia').patch('/realm', { allow_edit_history: false });
    const { status, body } = await history(2);
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'Message edit history is disabled in this organization', code: 'BAD_REQUEST' });
  });

  it('answers "Invalid message(s)" for a message the caller cannot see', async () => {
    const { status, body } = await realm.as('mia').get('/messages/3/history');
    expect(status).toBe(400);
    expect(body).toEqual({ result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' });
  });
});

describe('scenario messages with edits', () => {
  it('load with real edit history, as if the sender had edited them', async () => {
    const scenario = structuredClone(TEST_SCENARIO) as unknown as { messages: Record<string, unknown>[] };
    scenario.messages[1] = {
      ...scenario.messages[1],
      content: 'Thanks all',
      topic: 'welcom',
      edits: [
        { topic: 'welcome', timestamp: 1767225100 },
        { content: 'Thanks @**Olivia Owner**', timestamp: 1767225200 },
      ],
    };
    const edited = await createTestRealm(scenario);
    try {
      const { body } = await edited.as('olivia').get('/messages/2');
      expect(body.raw_content).toBe('Thanks @**Olivia Owner**');
      const row = body.message;
      expect(row).toMatchObject({
        content: THANKS_HTML,
        subject: 'welcome',
        last_edit_timestamp: 1767225200,
        last_moved_timestamp: 1767225100,
      });
      expect(row.edit_history).toEqual([
        { user_id: IDS.mark, timestamp: 1767225200, prev_content: 'Thanks all', prev_rendered_content: '<p>Thanks all</p>' },
        { user_id: IDS.mark, timestamp: 1767225100, prev_topic: 'welcom', topic: 'welcome' },
      ]);
      // The edit added a mention, so Olivia's flags say so.
      expect(row.flags).toContain('mentioned');
      const find = async (narrow: unknown[]) =>
        (await edited.as('olivia').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow })).body.messages.map(
          (m: { id: number }) => m.id,
        );
      expect(await find([{ operator: 'is', operand: 'mentioned' }])).toEqual([2]);
      // The topic is found case-insensitively under its edited name.
      expect(await find([{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'WELCOME' }])).toEqual([1, 2]);
    } finally {
      edited.engine.close();
    }
  });

  it('refuse a topic edit on a direct message, naming the message', async () => {
    const scenario = structuredClone(TEST_SCENARIO) as unknown as { messages: Record<string, unknown>[] };
    scenario.messages[3] = { ...scenario.messages[3], edits: [{ topic: 'nope', timestamp: 1767225300 }] };
    await expect(createTestRealm(scenario)).rejects.toThrow('$.messages[3]: Direct messages cannot have topics.');
  });
});
