import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportRealm, importRealm } from '../../src/engine/realm-archive/realm-archive.ts';
import { runAction } from '../../src/engine/services/run-action.ts';
import { Dexie } from 'dexie';
import { IDBKeyRange } from 'fake-indexeddb';
import { Engine } from '../../src/engine/engine.ts';
import { RealmDatabase } from '../../src/engine/storage/database.ts';
import { addNewMessage } from '../../src/engine/storage/message-ids.ts';
import type { MessageRow } from '../../src/engine/storage/rows.ts';
import { createTestRealm, IDS, onSqliteStore, type TestRealm, type TestUser } from '../support/test-realm.ts';

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

describe.skipIf(onSqliteStore)('message ids', () => {
  /** Adds a message under the next id in `db`'s transaction, as a send does. */
  const addMessage = (db: RealmDatabase) => addNewMessage(db, { ...structuredClone(template), id: 0 });
  /** A second engine on the test realm's database, as after a restart or in another worker. */
  const otherEngine = () => Engine.create({ db: new RealmDatabase({ name: realm.engine.db.name, indexedDB: realm.engine.db._options.indexedDB as IDBFactory, IDBKeyRange }) });
  let template: MessageRow;
  beforeEach(async () => {
    template = (await realm.engine.db.messages.get(await send('mark', 'general')))!;
  });

  it('are never given twice: an id taken by a transaction that was rolled back is skipped', async () => {
    const failed = runAction(realm.engine, async ({ db }) => {
      expect(await addMessage(db)).toBe(template.id + 1);
      throw new Error('refused');
    });
    await expect(failed).rejects.toThrow('refused');
    expect(await send('mark', 'general')).toBe(template.id + 2);
    expect(await realm.engine.db.counters.get('message')).toEqual({ name: 'message', next: template.id + 3 });
  });

  it('follow a counter written by anyone else', async () => {
    await realm.engine.db.counters.put({ name: 'message', next: template.id + 10 });
    expect(await send('mark', 'general')).toBe(template.id + 10);
  });

  it('follow a counter written by a transaction that was created while a send held its id', async () => {
    let written: Promise<unknown> = Promise.resolve();
    const sent = await runAction(realm.engine, ({ db }) => {
      const id = addMessage(db);
      // A transaction of its own, created after the send's, so IndexedDB runs it after the send.
      written = Dexie.ignoreTransaction(() => realm.engine.db.counters.put({ name: 'message', next: template.id + 10 }));
      return id;
    });
    await written;
    expect(sent).toBe(template.id + 1);
    expect(await send('mark', 'general')).toBe(template.id + 10);
  });

  it('give two interleaved transactions two ids, and store the counter above both whichever commits last', async () => {
    // The earlier transaction reads other rows before it takes its id; the later one takes its id at once.
    const earlier = runAction(realm.engine, async ({ db }) => {
      await db.users.get(IDS.mark);
      await db.channels.get(IDS.general);
      return addMessage(db);
    });
    const later = runAction(realm.engine, ({ db }) => addMessage(db));
    const ids = await Promise.all([earlier, later]);
    expect(ids.toSorted()).toEqual([template.id + 1, template.id + 2]);
    expect(await realm.engine.db.counters.get('message')).toEqual({ name: 'message', next: template.id + 3 });
    expect(await send('mark', 'general')).toBe(template.id + 3);
  });

  it('are taken again from storage when another engine on the same database took the held one', async () => {
    const other = await otherEngine();
    try {
      const theirs = await runAction(other, ({ db }) => addMessage(db));
      expect(theirs).toBe(template.id + 1);
      expect(await send('mark', 'general')).toBe(template.id + 2);
      expect(await runAction(other, ({ db }) => addMessage(db))).toBe(template.id + 3);
    } finally {
      other.close();
    }
  });

  it('start from the stored counter in a new engine on the same database', async () => {
    const other = await otherEngine();
    try {
      expect(await runAction(other, ({ db }) => addMessage(db))).toBe(template.id + 1);
    } finally {
      other.close();
    }
  });
});
