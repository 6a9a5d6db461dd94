import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectRefused } from '../support/expect-refused.ts';
import { createTestRealm, type TestRealm } from '../support/test-realm.ts';

let realm: TestRealm;
let now: number;
beforeEach(async () => {
  realm = await createTestRealm();
  now = Math.floor(realm.clock.now() / 1000);
});
afterEach(() => realm.engine.close());

/**
 * 160 KB of spaces, then one character: trimming trailing white space with a backtracking
 * pattern costs the square of this (over 10 s), far past the test timeout; a linear trim
 * answers at once.
 */
const SPACES_THEN_X = `${' '.repeat(160_000)}x`;
const TRUNCATED = `${' '.repeat(10_000 - '\n[message truncated]'.length)}\n[message truncated]`;

const storedContent = async (id: number) =>
  (await realm.as('mark').get(`/messages/${id}`, { apply_markdown: false })).body.message.content;

describe('content with a long run of white space before its end', () => {
  it('is sent, cut to the length limit', async () => {
    const { body } = await realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'long', content: SPACES_THEN_X });
    expect(body).toEqual({ result: 'success', msg: '', id: 5 });
    expect(await storedContent(5)).toBe(TRUNCATED);
  });

  it('is accepted as an edit, cut to the length limit', async () => {
    await realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'edited', content: 'first' });
    const { body } = await realm.as('mark').patch('/messages/5', { content: SPACES_THEN_X });
    expect(body).toMatchObject({ result: 'success', msg: '' });
    expect(await storedContent(5)).toBe(TRUNCATED);
  });

  it('is scheduled, cut to the length limit', async () => {
    const { body } = await realm.as('mark').post('/scheduled_messages', {
      type: 'stream',
      to: 1,
      topic: 'later',
      content: SPACES_THEN_X,
      scheduled_delivery_timestamp: now + 3600,
    });
    expect(body).toEqual({ result: 'success', msg: '', scheduled_message_id: 1 });
    const scheduled = (await realm.as('mark').get('/scheduled_messages')).body.scheduled_messages;
    expect(scheduled[0].content).toBe(TRUNCATED);
  });

  it('is refused as a reminder note past the note limit', async () => {
    await expectRefused(
      realm,
      () => realm.as('mark').post('/reminders', { message_id: 2, note: SPACES_THEN_X, scheduled_delivery_timestamp: now + 300 }),
      { result: 'error', msg: 'Maximum reminder note length: 1000 characters', code: 'BAD_REQUEST' },
    );
  });

  it('still loses only its trailing white space and leading blank lines', async () => {
    const content = `\n\n  indented\u00a0\n${' \t\n'.repeat(50_000)}\u2003`;
    const { body } = await realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'trim', content });
    expect(body).toMatchObject({ result: 'success', id: 5 });
    expect(await storedContent(5)).toBe('  indented');
  });
});
