import { afterEach, describe, expect, it } from 'vitest';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { IDS } from '../support/test-realm.ts';
import { eventsOf, SyncWorld } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

describe('a replica online', () => {
  it('starts from a snapshot holding only what its user may see', async () => {
    world = await SyncWorld.create();
    const mia = await world.replicaOf('mia');
    expect(await mia.replica.sync()).toBe('online');

    const db = mia.replica.engine.db;
    expect((await db.messages.toArray()).map((m) => m.id)).toEqual([1, 2]);
    expect(await db.channels.get(IDS.secret)).toBeUndefined();
    const others = (await db.users.toArray()).filter((u) => u.id !== IDS.mia);
    expect(others.every((u) => u.password_hash === null)).toBe(true);
    expect(others.map((u) => u.api_key)).not.toContain('OwnerKey000000000000000000000001');
    expect(await SyncWorld.messagesSeen(mia.api)).toEqual(await SyncWorld.messagesSeen(world.onHub('mia')));
  });

  it('brings a message sent on one replica to the other replica\'s event queue through the hub', async () => {
    world = await SyncWorld.create();
    const mark = await world.replicaOf('mark');
    const mia = await world.replicaOf('mia');
    await mark.replica.sync();
    await mia.replica.sync();
    const miaQueue = mia.openQueue();

    const sent = await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'Pizza?' });
    expect(sent.status).toBe(200);
    expect(sent.body.id).toBe(PROVISIONAL_ID_BASE);
    expect(await mark.replica.status()).toBe('pending:1');

    expect(await mark.replica.sync()).toBe('online');
    expect(await mia.replica.sync()).toBe('online');

    const [event] = eventsOf(miaQueue, 'message');
    expect(event).toMatchObject({ message: { id: 5, content: '<p>Pizza?</p>', subject: 'lunch', sender_id: IDS.mark }, flags: [] });
    const hubView = await SyncWorld.messagesSeen(world.onHub('mia'));
    expect(await SyncWorld.messagesSeen(mia.api)).toEqual(hubView);
    expect(await SyncWorld.messagesSeen(mark.api)).toEqual(await SyncWorld.messagesSeen(world.onHub('mark')));
  });
});
