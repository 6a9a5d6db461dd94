import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDBKeyRange } from 'fake-indexeddb';
import { Engine } from '../../src/engine/engine.ts';
import { runAction } from '../../src/engine/services/run-action.ts';
import { RealmDatabase } from '../../src/engine/storage/database.ts';
import { addNewMessage } from '../../src/engine/storage/message-ids.ts';
import { record, type RequestLog } from '../support/indexeddb-requests.ts';
import { createTestRealm, IDS, onSqliteStore, type TestRealm } from '../support/test-realm.ts';

// The IndexedDB requests each hot action issues once the engine's caches are warm (the same
// action done once before), pinned so that none can come back unnoticed. Figures and their
// reasons: docs/PERFORMANCE.md ("Requests per action").

let realm: TestRealm;
beforeEach(async () => {
  realm = await createTestRealm();
});
afterEach(() => realm.engine.close());

const narrow = (topic: string) => JSON.stringify([{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: topic }]);
const topicPage = (topic: string) => realm.as('mark').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: narrow(topic) });
const sendToGeneral = (content = 'hello') => realm.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'counted', content });

/** The requests of `action`, run once before to warm the caches; it must succeed both times. */
async function warmRequests(action: () => Promise<{ status: number }>): Promise<RequestLog> {
  expect((await action()).status).toBe(200);
  let status = 0;
  const log = await record(async () => {
    status = (await action()).status;
  });
  expect(status).toBe(200);
  return log;
}

/** An action's transaction spans every table of the schema (measured to cost nothing more in Chromium: docs/PERFORMANCE.md). */
const everyTable = () => realm.engine.db.tables.length;

/** `n` copies of a request name. */
const times = (n: number, request: string) => Array<string>(n).fill(request);

describe.skipIf(onSqliteStore)('IndexedDB requests per action, caches warm', () => {
  it('a channel send writes the message under the id the engine holds, the id counter and one flags row per subscriber', async () => {
    const log = await warmRequests(() => sendToGeneral());
    expect(log).toEqual({ requests: ['messages.add', 'counters.put', ...times(7, 'user_messages.add')], transactions: [`readwrite ${everyTable()} tables`] });
  });

  it('a direct message writes the message, the id counter and the two participants\' flags rows', async () => {
    const log = await warmRequests(() => realm.as('mark').post('/messages', { type: 'private', to: JSON.stringify([IDS.olivia]), content: 'hi' }));
    expect(log.requests).toEqual(['messages.add', 'counters.put', ...times(2, 'user_messages.add')]);
  });


  it('a send whose held id another engine on the database took reads the counter and the newest message id, then adds the message again', async () => {
    expect((await sendToGeneral()).status).toBe(200);
    const other = await Engine.create({ db: new RealmDatabase({ name: realm.engine.db.name, indexedDB: realm.engine.db._options.indexedDB as IDBFactory, IDBKeyRange }) });
    try {
      const template = (await other.db.messages.orderBy(':id').last())!;
      await runAction(other, ({ db }) => addNewMessage(db, { ...template, id: 0 }));
      const log = await record(() => sendToGeneral());
      expect(log.requests).toEqual([
        'messages.add',
        'counters.get',
        'messages.openKeyCursor',
        'messages.add',
        'counters.put',
        ...times(7, 'user_messages.add'),
      ]);
    } finally {
      other.close();
    }
  });

  it('a content edit without mentions reads the message and its holders, and writes the message alone', async () => {
    const { body } = await sendToGeneral();
    let round = 0;
    const log = await warmRequests(() => realm.as('mark').patch(`/messages/${body.id}`, { content: `edited ${++round}` }));
    expect(log.requests).toEqual([
      'messages.get',
      'user_messages.get',
      'user_messages[message_id].getAll',
      'attachments[message_ids].getAll',
      'messages.put',
    ]);
  });

  it('a reaction reads the message, the reactor\'s flags and the message\'s reactions, takes the reaction\'s id, writes it, and reads who to tell', async () => {
    const { body } = await sendToGeneral();
    const emoji = ['octopus', 'smile'];
    const log = await warmRequests(() => realm.as('olivia').post(`/messages/${body.id}/reactions`, { emoji_name: emoji.pop() }));
    expect(log.requests).toEqual([
      'messages.get',
      'user_messages.get',
      'reactions[message_id].getAll',
      'counters.get',
      'counters.put',
      'reactions.add',
      'user_messages[message_id].getAll',
    ]);
  });

  it('starring a message reads and writes the caller\'s flags row', async () => {
    const ids = [(await sendToGeneral()).body.id, (await sendToGeneral()).body.id];
    const log = await warmRequests(() => realm.as('olivia').post('/messages/flags', { messages: JSON.stringify([ids.pop()]), op: 'add', flag: 'starred' }));
    expect(log.requests).toEqual(['user_messages.get', 'user_messages.put']);
  });

  it('marking a message read reads and writes the reader\'s flags row', async () => {
    const ids = [(await sendToGeneral()).body.id, (await sendToGeneral()).body.id];
    const log = await warmRequests(() => realm.as('olivia').post('/messages/flags', { messages: JSON.stringify([ids.pop()]), op: 'add', flag: 'read' }));
    expect(log.requests).toEqual(['user_messages.get', 'user_messages.put']);
  });

  it('the recent direct conversations of /register are one range read of the caller\'s flags rows, whatever the number of direct messages', async () => {
    for (let i = 0; i < 5; i++) await realm.as('olivia').post('/messages', { type: 'private', to: JSON.stringify([IDS.mark]), content: `dm ${i}` });
    await realm.as('mark').post('/messages', { type: 'private', to: JSON.stringify([IDS.mia]), content: 'newest' });
    let body: { recent_private_conversations?: unknown } = {};
    const log = await warmRequests(async () => {
      const answer = await realm.as('mark').post('/register', { fetch_event_types: JSON.stringify(['recent_private_conversations']) });
      body = answer.body;
      return answer;
    });
    expect(log.requests).toEqual(['user_messages[[user_id+stream_id+message_id]].getAll']);
    expect(body.recent_private_conversations).toEqual([
      { max_message_id: expect.any(Number), user_ids: [IDS.mia] },
      { max_message_id: expect.any(Number), user_ids: [IDS.olivia] },
    ]);
  });

  it('the newest 100 of a topic read the messages and the viewer\'s flags as one range each, and nothing else when none has reactions', async () => {
    for (let i = 0; i < 3; i++) await sendToGeneral(`message ${i}`);
    const log = await warmRequests(() => topicPage('counted'));
    expect(log).toEqual({
      requests: ['messages[[stream_id+topic_key+id]].getAll', 'user_messages[[user_id+stream_id+thread_key+message_id]].getAll'],
      transactions: [`readonly ${everyTable()} tables`],
    });
  });

  it('a page with reacted messages also reads the reactions of those messages alone, one range each', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await sendToGeneral(`message ${i}`)).body.id);
    for (const id of [ids[0], ids[2]]) expect((await realm.as('olivia').post(`/messages/${id}/reactions`, { emoji_name: 'octopus' })).status).toBe(200);
    const log = await warmRequests(() => topicPage('counted'));
    expect(log.requests).toEqual([
      'messages[[stream_id+topic_key+id]].getAll',
      'user_messages[[user_id+stream_id+thread_key+message_id]].getAll',
      ...times(2, 'reactions[message_id].getAll'),
    ]);
  });

  it('GET /users/me, GET /users and GET /users/{id} answer from the caches: no transaction, no request', async () => {
    for (const path of ['/users/me', '/users', `/users/${IDS.olivia}`]) {
      expect(await warmRequests(() => realm.as('mark').get(path))).toEqual({ requests: [], transactions: [] });
    }
  });

  it('GET /users/me after a message to its user reads the newest of the user\'s flags rows again, in a snapshot', async () => {
    expect((await realm.as('mark').get('/users/me')).status).toBe(200);
    expect((await sendToGeneral()).status).toBe(200);
    const log = await record(async () => void (await realm.as('mark').get('/users/me')));
    expect(log).toEqual({ requests: ['user_messages.getAll'], transactions: [`readonly ${everyTable()} tables`] });
  });
});
