import { describe, expect, it } from 'vitest';
import { readSnapshot, runAction } from '../../src/engine/services/run-action.ts';
import { RealmDirectory } from '../../src/engine/directory/realm-directory.ts';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { RealmDatabase } from '../../src/engine/storage/database.ts';
import { createTestRealm, IDS, openQueue } from '../support/test-realm.ts';

describe('the cached realm directory', () => {
  it('is read once and reused while its tables are not written', async () => {
    const { engine } = await createTestRealm();
    const first = await readSnapshot(engine, (db) => RealmDirectory.load(db));
    const second = await readSnapshot(engine, (db) => RealmDirectory.load(db));
    expect(second).toBe(first);
  });

  it('is read again after a user is renamed', async () => {
    const { engine } = await createTestRealm();
    const before = await readSnapshot(engine, (db) => RealmDirectory.load(db));
    await runAction(engine, async (scope) => {
      await scope.db.users.update(IDS.mark, { full_name: 'Mark Renamed' });
    });
    const after = await readSnapshot(engine, (db) => RealmDirectory.load(db));
    expect(after).not.toBe(before);
    expect(after.user(IDS.mark).full_name).toBe('Mark Renamed');
  });

  it('is read again after a channel is added, a group deleted or a linkifier written', async () => {
    const { engine } = await createTestRealm();
    const channel = (await engine.db.channels.get(IDS.design))!;
    let directory = await RealmDirectory.load(engine.db);
    await engine.db.channels.add({ ...channel, id: 99, name: 'extra', name_key: 'extra' });
    directory = await RealmDirectory.load(engine.db);
    expect(directory.channelByName('extra')?.id).toBe(99);

    const group = (await engine.db.user_groups.toArray())[0];
    await engine.db.user_groups.delete(group.id);
    directory = await RealmDirectory.load(engine.db);
    expect(directory.groups.has(group.id)).toBe(false);

    await engine.db.linkifiers.put({ id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.test/{id}', order: 0 });
    directory = await RealmDirectory.load(engine.db);
    expect(directory.linkifiers.map((l) => l.id)).toEqual([1]);
  });

  it('does not keep rows written by an action that was rolled back', async () => {
    const { engine } = await createTestRealm();
    await RealmDirectory.load(engine.db);
    const failed = runAction(engine, async (scope) => {
      await scope.db.users.update(IDS.mark, { full_name: 'Never Committed' });
      const inside = await RealmDirectory.load(scope.db);
      expect(inside.user(IDS.mark).full_name).toBe('Never Committed');
      throw new Error('refused');
    });
    await expect(failed).rejects.toThrow('refused');
    const after = await readSnapshot(engine, (db) => RealmDirectory.load(db));
    expect(after.user(IDS.mark).full_name).toBe('Mark Member');
  });

  it('renders a mention of a renamed user with the new name', async () => {
    const realm = await createTestRealm();
    await realm.as('olivia').post('/messages', { type: 'stream', to: 'general', topic: 'warm', content: 'warm the cache' });
    await runAction(realm.engine, async (scope) => {
      await scope.db.users.update(IDS.mia, { full_name: 'Mia Renamed' });
    });
    const sent = await realm.as('olivia').post('/messages', { type: 'stream', to: 'general', topic: 'warm', content: 'hi @**Mia Renamed**' });
    expect(sent.status).toBe(200);
    const fetched = await realm.as('olivia').get(`/messages/${sent.body.id}`);
    expect(fetched.body.message.content).toContain(`data-user-id="${IDS.mia}"`);
    expect(fetched.body.message.content).toContain('@Mia Renamed');
  });

  it('is read after the writes of actions begun before, so requests at once creating one channel make it once', async () => {
    const realm = await createTestRealm();
    const queue = openQueue(realm.engine, IDS.mark);
    const answers = await Promise.all([1, 2, 3].map(() => realm.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'lunch' }] })));
    expect(answers.map((answer) => [answer.status, answer.body.subscribed, answer.body.already_subscribed])).toEqual([
      [200, { [IDS.mark]: ['lunch'] }, {}],
      [200, {}, { [IDS.mark]: ['lunch'] }],
      [200, {}, { [IDS.mark]: ['lunch'] }],
    ]);
    expect(await realm.engine.db.channels.where('name_key').equals('lunch').count()).toBe(1);
    expect(queue.events.filter((event) => event.type === 'stream' && event.op === 'create')).toHaveLength(1);
  });

  it('is read after the writes of actions begun before, so two channels renamed at once to one name are refused the second time, not failed', async () => {
    const realm = await createTestRealm();
    const olivia = realm.as('olivia');
    const answers = await Promise.all([IDS.general, IDS.design].map((id) => olivia.patch(`/streams/${id}`, { new_name: 'lobby' })));
    expect(answers.map((answer) => [answer.status, answer.body.code ?? null])).toEqual([
      [200, null],
      [400, 'CHANNEL_ALREADY_EXISTS'],
    ]);
    expect((await realm.engine.db.channels.get(IDS.design))?.name).toBe('design');
  });

  it('is not kept for a database no engine watches', async () => {
    const { engine } = await createTestRealm();
    const rows = await engine.db.users.toArray();
    const db = new RealmDatabase({ name: 'unwatched', indexedDB: new IDBFactory(), IDBKeyRange });
    await db.realm.put((await engine.db.realm.get(1))!);
    await db.users.bulkPut(rows);
    const first = await RealmDirectory.load(db);
    expect(await RealmDirectory.load(db)).not.toBe(first);
    db.close();
  });
});
