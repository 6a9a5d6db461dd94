import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportRealm, importRealm, type RealmArchive, RealmArchiveError } from '../../src/engine/realm-archive/realm-archive.ts';
import { createTestRealm, IDS, TestClient, type TestRealm, type TestUser } from '../support/test-realm.ts';

const OTHER_SCENARIO = {
  realm: { name: 'Other Realm', host: 'other.test' },
  users: [{ email: 'zed@other.test', full_name: 'Zed', role: 100, api_key: 'ZedKey00000000000000000000000001' }],
  channels: [{ name: 'lobby', subscribers: ['zed@other.test'] }],
  messages: [{ sender: 'zed@other.test', channel: 'lobby', topic: 'hi', content: 'only message here' }],
};

/** The other realm's only user, as a client of whichever engine holds that realm. */
const zed = (realm: TestRealm) => new TestClient(realm.engine, 'zed@other.test', OTHER_SCENARIO.users[0].api_key);
/** A user of the source realm, as a client of the target engine (after the import). */
const inTarget = (user: TestUser) => new TestClient(target.engine, source.as(user).email, source.as(user).apiKey);

let source: TestRealm;
let target: TestRealm;
beforeEach(async () => {
  source = await createTestRealm();
  target = await createTestRealm(OTHER_SCENARIO);
});
afterEach(() => {
  source.engine.close();
  target.engine.close();
});

/** Every table's rows in primary-key order. */
async function allRows(realm: TestRealm): Promise<Record<string, unknown[]>> {
  const db = realm.engine.db;
  return Object.fromEntries(await Promise.all(db.tables.map(async (table) => [table.name, await table.toArray()])));
}

/** An archive as it comes back from a file: through JSON text. */
async function exportedFile(realm: TestRealm): Promise<unknown> {
  return JSON.parse(JSON.stringify(await exportRealm(realm.engine)));
}

/** Gives the source realm some history beyond the scenario: sends, a DM, reactions, edits, a move, flags. */
async function liveHistory(realm: TestRealm): Promise<void> {
  const send = async (params: Record<string, unknown>) => (await realm.as('mark').post('/messages', params)).body.id as number;
  const first = await send({ type: 'stream', to: 'general', topic: 'archive', content: 'first :tada: @**Olivia Owner**' });
  const second = await send({ type: 'stream', to: 'design', topic: 'drafts', content: 'second' });
  await send({ type: 'direct', to: [IDS.mia], content: 'a direct one' });
  expect((await realm.as('olivia').post(`/messages/${first}/reactions`, { emoji_name: 'octopus' })).status).toBe(200);
  expect((await realm.as('mia').post(`/messages/${first}/reactions`, { emoji_name: 'thumbs_up' })).status).toBe(200);
  expect((await realm.as('mark').patch(`/messages/${first}`, { content: 'first, edited' })).status).toBe(200);
  expect((await realm.as('mark').patch(`/messages/${second}`, { topic: 'final drafts' })).status).toBe(200);
  expect((await realm.as('olivia').post('/messages/flags', { messages: [first, 1], op: 'add', flag: 'starred' })).status).toBe(200);
  expect((await realm.as('mia').post('/messages/flags', { messages: [first], op: 'add', flag: 'read' })).status).toBe(200);
}

describe('realm export and import', () => {
  it('brings back every row of every table after a round trip through a JSON file', async () => {
    await liveHistory(source);
    const before = await allRows(source);
    // The round trip must cover rows that only live activity creates.
    expect(before.reactions).toHaveLength(2);
    expect(before.messages.some((m) => (m as { edit_history?: unknown[] }).edit_history?.length)).toBe(true);

    await importRealm(target.engine, await exportedFile(source));

    const after = await allRows(target);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const table of Object.keys(before)) {
      expect({ table, rows: after[table] }).toEqual({ table, rows: before[table] });
    }
  });

  it('serves the imported realm through the API exactly as the original: logins, pages and next ids', async () => {
    await liveHistory(source);
    await importRealm(target.engine, await exportedFile(source));
    const page = { anchor: 'newest', num_before: 50, num_after: 0 };

    const original = await source.as('olivia').get('/messages', page);
    const imported = await inTarget('olivia').get('/messages', page);
    expect(imported.status).toBe(200);
    expect(imported.body.messages).toEqual(original.body.messages);

    const next = { type: 'stream', to: 'general', topic: 'after', content: 'next one' };
    expect((await inTarget('mark').post('/messages', next)).body.id).toBe((await source.as('mark').post('/messages', next)).body.id);
  });

  it('ends the event queues of the replaced realm, so their clients re-register', async () => {
    const queueId = (await source.as('olivia').post('/register', {})).body.queue_id as string;
    await importRealm(source.engine, await exportedFile(target));
    const poll = await zed(source).get('/events', { queue_id: queueId, last_event_id: -1 });
    expect(poll.body.code).toBe('BAD_EVENT_QUEUE_ID');
    expect(source.engine.queues.size).toBe(0);
  });

  it('stamps the archive with its format, version and the engine clock', async () => {
    const archive = await exportRealm(source.engine);
    expect(archive).toMatchObject({ format: 'offline-realm-archive', version: 1, exported_at: '2026-01-01T12:00:00.000Z' });
    expect(archive.tables.realm).toEqual([expect.objectContaining({ id: 1, name: 'Test Realm' })]);
  });
});

describe('refusing a faulty archive', () => {
  let archive: RealmArchive;
  beforeEach(async () => {
    archive = (await exportedFile(source)) as RealmArchive;
  });

  async function refusal(input: unknown): Promise<RealmArchiveError> {
    const before = await allRows(target);
    const queueId = (await zed(target).post('/register', {})).body.queue_id as string;
    const error = await importRealm(target.engine, input).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RealmArchiveError);
    // Nothing written and nothing ended: every table is as it was, the queue still polls.
    expect(await allRows(target)).toEqual(before);
    expect((await zed(target).get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true })).status).toBe(200);
    return error as RealmArchiveError;
  }

  it('names the format when the file is not a realm archive', async () => {
    expect((await refusal(OTHER_SCENARIO)).message).toBe('$.format: not an Offline Realm archive ("format" must be "offline-realm-archive")');
    expect((await refusal(null)).path).toBe('$');
  });

  it('names the version when the archive comes from a newer format version, before looking at its rows', async () => {
    const newer = { ...archive, version: 2, tables: { anything: 'else' } };
    expect((await refusal(newer)).message).toBe('$.version: unsupported archive version (this server reads version 1)');
  });

  it('points at the first faulty column of a row', async () => {
    (archive.tables.messages[2] as Record<string, unknown>).sender_id = 'mark';
    expect((await refusal(archive)).path).toBe('$.tables.messages[2].sender_id');
  });

  it('refuses an archive missing a table or holding an unknown one', async () => {
    const { counters: _dropped, ...missing } = archive.tables;
    expect((await refusal({ ...archive, tables: missing })).path).toBe('$.tables.counters');
    expect((await refusal({ ...archive, tables: { ...archive.tables, holograms: [] } })).path).toBe('$.tables');
  });

  it('refuses duplicate primary keys and duplicate unique keys before writing anything', async () => {
    const duplicateId = { ...archive, tables: { ...archive.tables, messages: [...archive.tables.messages, archive.tables.messages[0]] } };
    expect((await refusal(duplicateId)).message).toBe(`$.tables.messages[${archive.tables.messages.length}]: duplicate id 1`);

    const users = archive.tables.users.map((user) => ({ ...user }));
    users[3].email_key = users[2].email_key;
    expect((await refusal({ ...archive, tables: { ...archive.tables, users } })).message).toMatch(/^\$\.tables\.users\[3\]: duplicate email_key/);
  });
});
