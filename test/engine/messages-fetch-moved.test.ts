import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/engine.ts';
import { exportRealm, importRealm, type RealmArchive, RealmArchiveError } from '../../src/engine/realm-archive/realm-archive.ts';
import type { UserMessageRow } from '../../src/engine/storage/rows.ts';
import { createTestRealm, IDS, TestClient, TEST_SCENARIO, type TestRealm, type TestUser } from '../support/test-realm.ts';

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const QUIET = { send_notification_to_old_thread: false, send_notification_to_new_thread: false };
const channel = (name: string) => ({ operator: 'channel', operand: name });
const topic = (name: string) => ({ operator: 'topic', operand: name });

async function send(user: TestUser, to: string, topicName: string, content: string): Promise<number> {
  const { status, body } = await realm.as(user).post('/messages', { type: 'channel', to, topic: topicName, content });
  expect(status).toBe(200);
  return body.id as number;
}

/** Each message of the narrow's page as `user` gets it: id, topic and flags. */
async function page(user: TestUser, narrow: unknown[]): Promise<Array<{ id: number; subject: string; flags: string[] }>> {
  const { status, body } = await realm.as(user).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });
  expect(status).toBe(200);
  return body.messages.map((m: { id: number; subject: string; flags: string[] }) => ({ id: m.id, subject: m.subject, flags: m.flags }));
}

/** The flags `user` gets for one message through GET /messages/{id}, which reads the flags row by its key. */
async function flagsOf(user: TestUser, id: number): Promise<string[]> {
  const { status, body } = await realm.as(user).get(`/messages/${id}`);
  expect({ id, status }).toEqual({ id, status: 200 });
  return body.message.flags;
}

/** Every message of the page carries the same flags as GET /messages/{id} gives it. */
async function expectFlagsAsSingleReads(user: TestUser, narrow: unknown[]): Promise<void> {
  for (const message of await page(user, narrow)) expect({ user, id: message.id, flags: await flagsOf(user, message.id) }).toEqual({ user, id: message.id, flags: message.flags });
}

/** Three messages in general > "launch": the second starred by Mia, the third unread for Mark. */
async function launchTopic(): Promise<number[]> {
  const ids = [await send('olivia', 'general', 'launch', 'one'), await send('olivia', 'general', 'launch', 'two'), await send('olivia', 'general', 'launch', 'three')];
  expect((await realm.as('mia').post('/messages/flags', { messages: [ids[1]], op: 'add', flag: 'starred' })).status).toBe(200);
  expect((await realm.as('mark').post('/messages/flags', { messages: ids.slice(0, 2), op: 'add', flag: 'read' })).status).toBe(200);
  return ids;
}

describe('GET /messages after a topic moves', () => {
  it('finds a renamed topic under its new name with each reader\'s flags, and nothing under the old one', async () => {
    const ids = await launchTopic();
    expect((await realm.as('olivia').patch(`/messages/${ids[0]}`, { topic: 'Liftoff', propagate_mode: 'change_all', ...QUIET })).status).toBe(200);

    expect(await page('mia', [channel('general'), topic('launch')])).toEqual([]);
    expect(await page('mia', [channel('general'), topic('liftoff')])).toEqual([
      { id: ids[0], subject: 'Liftoff', flags: [] },
      { id: ids[1], subject: 'Liftoff', flags: ['starred'] },
      { id: ids[2], subject: 'Liftoff', flags: [] },
    ]);
    expect(await page('mark', [channel('general'), topic('liftoff')])).toEqual([
      { id: ids[0], subject: 'Liftoff', flags: ['read'] },
      { id: ids[1], subject: 'Liftoff', flags: ['read'] },
      { id: ids[2], subject: 'Liftoff', flags: [] },
    ]);
    for (const user of ['olivia', 'mark', 'mia', 'gail'] as const) {
      await expectFlagsAsSingleReads(user, [channel('general'), topic('liftoff')]);
      await expectFlagsAsSingleReads(user, [channel('general')]);
      await expectFlagsAsSingleReads(user, [{ operator: 'sender', operand: 'olivia@zulip.test' }]);
    }
    expect((await page('mia', [{ operator: 'is', operand: 'starred' }])).map((m) => m.id)).toEqual([ids[1]]);
  });

  it('finds only the moved part of a topic moved from a message on (change_later) under the new name', async () => {
    const ids = await launchTopic();
    expect((await realm.as('olivia').patch(`/messages/${ids[1]}`, { topic: 'later', propagate_mode: 'change_later', ...QUIET })).status).toBe(200);

    expect((await page('mia', [channel('general'), topic('launch')])).map((m) => m.id)).toEqual([ids[0]]);
    expect(await page('mia', [channel('general'), topic('later')])).toEqual([
      { id: ids[1], subject: 'later', flags: ['starred'] },
      { id: ids[2], subject: 'later', flags: [] },
    ]);
  });

  it('keeps a resolved topic\'s flags: resolving and unresolving renames it twice', async () => {
    const ids = await launchTopic();
    expect((await realm.as('olivia').patch(`/messages/${ids[0]}`, { topic: '✔ launch', propagate_mode: 'change_all', ...QUIET })).status).toBe(200);
    expect(await page('mia', [channel('general'), topic('✔ launch')])).toEqual([
      { id: ids[0], subject: '✔ launch', flags: [] },
      { id: ids[1], subject: '✔ launch', flags: ['starred'] },
      { id: ids[2], subject: '✔ launch', flags: [] },
      // The notification bot's resolve note (sent even when moves are quiet, as upstream's), read for Mia, who took no part.
      { id: ids[2] + 1, subject: '✔ launch', flags: ['read'] },
    ]);
    expect((await realm.as('olivia').patch(`/messages/${ids[0]}`, { topic: 'launch', propagate_mode: 'change_all', ...QUIET })).status).toBe(200);
    // Unresolved within the minute: the note is taken back.
    expect((await page('mia', [channel('general'), topic('launch')])).map((m) => m.flags)).toEqual([[], ['starred'], []]);
    expect(await page('mia', [channel('general'), topic('✔ launch')])).toEqual([]);
  });

  it('shows a topic moved to another channel there, with the flags of the readers who keep their rows', async () => {
    const ids = await launchTopic();
    expect((await realm.as('olivia').post('/messages/flags', { messages: [ids[2]], op: 'add', flag: 'starred' })).status).toBe(200);
    expect((await realm.as('olivia').patch(`/messages/${ids[0]}`, { stream_id: IDS.design, propagate_mode: 'change_all', ...QUIET })).status).toBe(200);

    expect(await page('olivia', [channel('general'), topic('launch')])).toEqual([]);
    // Olivia and Mark are subscribed to design and keep their rows (Olivia's own messages sent through the API stay unread).
    expect(await page('olivia', [channel('design'), topic('launch')])).toEqual([
      { id: ids[0], subject: 'launch', flags: [] },
      { id: ids[1], subject: 'launch', flags: [] },
      { id: ids[2], subject: 'launch', flags: ['starred'] },
    ]);
    expect((await page('mark', [channel('design'), topic('launch')])).map((m) => m.flags)).toEqual([['read'], ['read'], []]);
    expect((await page('mark', [channel('design')])).map((m) => m.id)).toEqual(ids);
    // Mia is not: her rows go, and the public channel's history shows the messages as read history.
    expect((await page('mia', [channel('design'), topic('launch')])).map((m) => m.flags)).toEqual([
      ['read', 'historical'],
      ['read', 'historical'],
      ['read', 'historical'],
    ]);
    expect(await page('mia', [{ operator: 'is', operand: 'starred' }])).toEqual([]);
    for (const user of ['olivia', 'mark', 'mia'] as const) await expectFlagsAsSingleReads(user, [channel('design'), topic('launch')]);
  });

  it('pages a topic where the reader holds rows only for the newer messages: the older ones are history', async () => {
    const older = await send('olivia', 'design', 'roadmap', 'before Mia joined');
    expect((await realm.as('mia').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] })).status).toBe(200);
    const newer = await send('olivia', 'design', 'roadmap', 'after Mia joined');
    expect((await realm.as('mia').post('/messages/flags', { messages: [newer], op: 'add', flag: 'starred' })).status).toBe(200);
    expect((await realm.as('olivia').patch(`/messages/${older}`, { topic: 'plan', propagate_mode: 'change_all', ...QUIET })).status).toBe(200);

    expect(await page('mia', [channel('design'), topic('plan')])).toEqual([
      { id: older, subject: 'plan', flags: ['read', 'historical'] },
      { id: newer, subject: 'plan', flags: ['starred'] },
    ]);
    expect(await page('mia', [channel('design')])).toEqual([
      { id: older, subject: 'plan', flags: ['read', 'historical'] },
      { id: newer, subject: 'plan', flags: ['starred'] },
    ]);
  });

  it('forgets deleted messages: the page of their topic no longer lists them', async () => {
    const ids = await launchTopic();
    expect((await realm.as('olivia').delete(`/messages/${ids[1]}`)).status).toBe(200);
    expect((await page('mia', [channel('general'), topic('launch')])).map((m) => m.id)).toEqual([ids[0], ids[2]]);
  });
});

describe('GET /messages of a direct conversation', () => {
  it('gives each participant their own flags', async () => {
    const { body } = await realm.as('mark').post('/messages', { type: 'direct', to: [IDS.olivia], content: 'second hello' });
    expect((await realm.as('olivia').post('/messages/flags', { messages: [body.id], op: 'add', flag: 'starred' })).status).toBe(200);
    const conversation = [{ operator: 'dm', operand: 'olivia@zulip.test' }];
    expect((await page('mark', conversation)).map((m) => [m.id, m.flags])).toEqual([[4, ['read']], [body.id, []]]);
    const withMark = [{ operator: 'dm', operand: 'mark@zulip.test' }];
    expect((await page('olivia', withMark)).map((m) => [m.id, m.flags])).toEqual([[4, ['read']], [body.id, ['starred']]]);
    expect((await page('olivia', [{ operator: 'is', operand: 'dm' }])).map((m) => m.id)).toEqual([4, body.id]);
  });
});

describe('importing an archive whose flags rows lack the message\'s place (made before the place columns)', () => {
  /** An export whose user_messages rows carry only flags and the old sparse columns, as archives once did. */
  async function olderArchive(): Promise<RealmArchive> {
    const archive = JSON.parse(JSON.stringify(await exportRealm(realm.engine))) as RealmArchive;
    const messages = new Map(archive.tables.messages.map((m) => [m.id, m]));
    archive.tables.user_messages = archive.tables.user_messages.map((row) => {
      const { stream_id: _s, thread_key: _t, sender_id: _u, ...older } = row as Record<string, unknown>;
      return messages.get(row.message_id)?.type === 'private' ? { ...older, dm: 1 } : older;
    }) as RealmArchive['tables']['user_messages'];
    return archive;
  }

  it('serves the same pages and flags after the import', async () => {
    const ids = await launchTopic();
    expect((await realm.as('olivia').patch(`/messages/${ids[0]}`, { topic: 'liftoff', propagate_mode: 'change_all', ...QUIET })).status).toBe(200);
    const narrows = [[channel('general'), topic('liftoff')], [channel('general')], [{ operator: 'dm', operand: 'olivia@zulip.test' }], [{ operator: 'is', operand: 'dm' }]];
    const before = await Promise.all(narrows.map((narrow) => page('mark', narrow)));
    const recent = (await realm.as('mark').post('/register', { fetch_event_types: JSON.stringify(['recent_private_conversations']) })).body.recent_private_conversations;

    await importRealm(realm.engine, await olderArchive());

    expect(await Promise.all(narrows.map((narrow) => page('mark', narrow)))).toEqual(before);
    expect((await page('mia', [channel('general'), topic('liftoff')])).map((m) => m.flags)).toEqual([[], ['starred'], []]);
    expect((await realm.as('mark').post('/register', { fetch_event_types: JSON.stringify(['recent_private_conversations']) })).body.recent_private_conversations).toEqual(recent);
    const stored = await realm.engine.db.user_messages.get([IDS.mark, 4]);
    expect(stored).toEqual({ user_id: IDS.mark, message_id: 4, flags: 1, stream_id: 0, thread_key: `${IDS.olivia},${IDS.mark}`, sender_id: IDS.olivia });
  });

  it('refuses a flags row whose message is not in the archive, naming the row', async () => {
    const archive = await olderArchive();
    archive.tables.user_messages.push({ user_id: IDS.mark, message_id: 999, flags: 0 } as RealmArchive['tables']['user_messages'][number]);
    const error = await importRealm(realm.engine, archive).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(RealmArchiveError);
    expect((error as RealmArchiveError).message).toBe(`$.tables.user_messages[${archive.tables.user_messages.length - 1}]: message 999 is not in the archive`);
    expect(await realm.engine.db.user_messages.count()).toBe(archive.tables.user_messages.length - 1);
  });
});

describe('a realm stored before flags rows carried their message\'s place', () => {
  it('gets the place when an engine opens it, and serves the same pages and flags', async () => {
    const ids = await launchTopic();
    const narrows = [[channel('general'), topic('launch')], [channel('general')], [{ operator: 'dm', operand: 'olivia@zulip.test' }]];
    const before = await Promise.all(narrows.map((narrow) => page('mark', narrow)));
    const { db } = realm.engine;
    // The rows as they were stored then: flags and sparse columns, `dm` for direct messages, and a
    // row whose message is gone.
    const stored = await db.user_messages.toArray();
    await db.user_messages.clear();
    await db.user_messages.bulkAdd(
      stored.map(({ stream_id, thread_key: _t, sender_id: _s, ...older }) => (stream_id === 0 ? { ...older, dm: 1 } : older)) as UserMessageRow[],
    );
    await db.user_messages.add({ user_id: IDS.mark, message_id: 999, flags: 0, unread: 1 } as UserMessageRow);

    const reopened = await Engine.create({ db });
    const mark = new TestClient(reopened, TEST_SCENARIO.users[3].email, TEST_SCENARIO.users[3].api_key);
    const pages = await Promise.all(
      narrows.map(async (narrow) => (await mark.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow })).body.messages),
    );
    expect(pages.map((messages) => messages.map((m: { id: number; subject: string; flags: string[] }) => ({ id: m.id, subject: m.subject, flags: m.flags })))).toEqual(before);
    expect(await db.user_messages.get([IDS.mark, ids[2]])).toEqual({ user_id: IDS.mark, message_id: ids[2], flags: 0, stream_id: IDS.general, thread_key: 'launch', sender_id: IDS.olivia, unread: 1 });
    expect(await db.user_messages.get([IDS.mark, 999])).toBeUndefined();
    expect(await db.user_messages.count()).toBe(stored.length);
  });
});
