import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportRealm, importRealm } from '../../src/engine/realm-archive/realm-archive.ts';
import { runAction } from '../../src/engine/services/run-action.ts';
import { nextId } from '../../src/engine/storage/database.ts';
import { createTestRealm, IDS, type TestRealm, type TestUser } from '../support/test-realm.ts';

// A send reads its recipients, their alert words and mutes from memory once read
// (docs/PERFORMANCE.md, "Requests per action"); each test warms those caches with a send,
// changes what they hold through the API, and checks that the next send sees the change.

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const send = async (sender: TestUser, channel: string, content = 'hello'): Promise<number> => {
  const { status, body } = await realm.as(sender).post('/messages', { type: 'stream', to: channel, topic: 'caches', content });
  expect(status).toBe(200);
  return body.id;
};
/** The flags `user` holds for a message, or null when they did not receive it. */
const flagsOf = async (user: TestUser, id: number): Promise<string[] | null> => {
  const { body } = await realm.as(user).get('/messages', { anchor: id, num_before: 0, num_after: 0, narrow: JSON.stringify([{ operator: 'id', operand: id }]) });
  const message = body.messages[0];
  return message && !message.flags.includes('historical') ? message.flags : null;
};

describe('a send after the caches it reads were changed', () => {
  it('reaches a user who just subscribed, and no longer one who just unsubscribed', async () => {
    expect(await flagsOf('mia', await send('mark', 'design'))).toBeNull();
    expect((await realm.as('mia').post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'design' }]) })).status).toBe(200);
    expect(await flagsOf('mia', await send('mark', 'design'))).toEqual([]);
    expect((await realm.as('mia').delete('/users/me/subscriptions', { subscriptions: JSON.stringify(['design']) })).status).toBe(200);
    expect(await flagsOf('mia', await send('mark', 'design'))).toBeNull();
  });

  it('arrives read for a user who just muted the sender', async () => {
    expect(await flagsOf('mia', await send('mark', 'general'))).toEqual([]);
    expect((await realm.as('mia').post(`/users/me/muted_users/${IDS.mark}`)).status).toBe(200);
    expect(await flagsOf('mia', await send('mark', 'general'))).toEqual(['read']);
  });

  it('alerts a user who just added an alert word it contains', async () => {
    expect(await flagsOf('mia', await send('mark', 'general', 'the deploy is done'))).toEqual([]);
    expect((await realm.as('mia').post('/users/me/alert_words', { alert_words: JSON.stringify(['deploy']) })).status).toBe(200);
    expect(await flagsOf('mia', await send('mark', 'general', 'the deploy is done'))).toEqual(['has_alert_word']);
  });

  it('takes the next message id of a realm archive imported since the last send', async () => {
    const archive = JSON.parse(JSON.stringify(await exportRealm(realm.engine)));
    const before = await send('mark', 'general');
    await send('mark', 'general');
    await importRealm(realm.engine, archive);
    expect(await send('mark', 'general')).toBe(before);
  });
});

describe('id counters', () => {
  it('are read again after a transaction that took an id was rolled back, so none is skipped or given twice', async () => {
    const first = await send('mark', 'general');
    const failed = runAction(realm.engine, async ({ db }) => {
      expect(await nextId(db, 'message')).toBe(first + 1);
      throw new Error('refused');
    });
    await expect(failed).rejects.toThrow('refused');
    expect(await send('mark', 'general')).toBe(first + 1);
  });

  it('follow a counter written by anyone else', async () => {
    const first = await send('mark', 'general');
    await realm.engine.db.counters.put({ name: 'message', next: first + 10 });
    expect(await send('mark', 'general')).toBe(first + 10);
  });

  it('give two interleaved transactions two ids, the later one waiting for the earlier one\'s', async () => {
    await send('mark', 'general');
    // The earlier transaction reads other rows before it takes its id; the later one asks for its id at once.
    const earlier = runAction(realm.engine, async ({ db }) => {
      await db.users.get(IDS.mark);
      await db.channels.get(IDS.general);
      return nextId(db, 'message');
    });
    const later = runAction(realm.engine, ({ db }) => nextId(db, 'message'));
    const [a, b] = await Promise.all([earlier, later]);
    expect(b).toBe(a + 1);
  });
});
