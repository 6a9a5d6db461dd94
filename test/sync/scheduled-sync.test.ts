import { afterEach, describe, expect, it } from 'vitest';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { IDS } from '../support/test-realm.ts';
import { exportRealm, importRealm } from '../../src/engine/realm-archive/realm-archive.ts';
import { Caller, eventsOf, newEngine, SyncWorld, syncedWorld, type TestReplica, userRow } from './sync-fixture.ts';

/**
 * Scheduled messages and reminders live on the hub: a replica holds its user's rows (to list
 * them) but never delivers one. The hub sends it when its time comes, and the replica learns it
 * from a pull like any other message, once.
 */

let world: SyncWorld;
afterEach(() => world?.close());

const DELAY_SECONDS = 300;

/** Moves the shared clock past the delivery time and lets both schedulers finish what fell due. */
async function timeComes(mark: TestReplica): Promise<void> {
  world.clock.advance(DELAY_SECONDS * 1000);
  await Promise.all([world.hubEngine.scheduler.settled(), mark.replica.engine.scheduler.settled()]);
}

/** The messages of a topic as mark sees them on an API. */
const topicOf = async (api: SyncWorld['replicas'][number]['api'], topic: string) =>
  (await SyncWorld.messagesSeen(api)).filter((message) => (message as { topic: string }).topic === topic);

describe('a message scheduled through a replica', () => {
  it('is sent once, by the hub, when its time comes: the replica shows the hub\'s message, hears the hub\'s events and drops the scheduled row', async () => {
    let mark: TestReplica;
    ({ world, replicas: { mark } } = await syncedWorld('mark'));
    const at = Math.floor(world.clock.now() / 1000) + DELAY_SECONDS;
    const scheduled = await mark.api.post('/scheduled_messages', { type: 'channel', to: IDS.general, topic: 'later', content: 'on time', scheduled_delivery_timestamp: at });
    expect(scheduled.status).toBe(200);
    expect((await mark.api.get('/scheduled_messages')).body.scheduled_messages).toHaveLength(1);
    const queue = mark.openQueue();

    await timeComes(mark);
    // Before the replica hears from the hub, it has sent nothing of its own.
    expect(await topicOf(mark.api, 'later')).toEqual([]);
    expect(await mark.replica.sync()).toBe('online');

    const onHub = await topicOf(world.onHub('mark'), 'later');
    expect(onHub).toEqual([expect.objectContaining({ content: 'on time', sender_id: IDS.mark })]);
    expect((onHub[0] as { id: number }).id).toBeLessThan(PROVISIONAL_ID_BASE);
    expect(await topicOf(mark.api, 'later')).toEqual(onHub);
    expect((await mark.api.get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
    expect(eventsOf(queue, 'message', 'scheduled_messages').map((event) => [event.type, event.op ?? (event.message as { id: number }).id])).toEqual([
      ['message', (onHub[0] as { id: number }).id],
      ['scheduled_messages', 'remove'],
    ]);
  });

  it('as a reminder is delivered by the hub alone, to the user once', async () => {
    let mark: TestReplica;
    ({ world, replicas: { mark } } = await syncedWorld('mark'));
    const at = Math.floor(world.clock.now() / 1000) + DELAY_SECONDS;
    const message = (await mark.api.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 })).body.messages[0] as { id: number };
    expect((await mark.api.post('/reminders', { message_id: message.id, scheduled_delivery_timestamp: at })).status).toBe(200);
    const before = await SyncWorld.messagesSeen(world.onHub('mark'));

    await timeComes(mark);
    expect(await mark.replica.sync()).toBe('online');
    const after = await SyncWorld.messagesSeen(world.onHub('mark'));
    expect(after).toHaveLength(before.length + 1);
    expect(await SyncWorld.messagesSeen(mark.api)).toEqual(after);
    expect((await mark.api.get('/reminders')).body.reminders).toEqual([]);
  });
});

describe('a replica\'s realm exported and imported elsewhere', () => {
  it('is a realm of its own: it carries no link to the hub, and delivers the scheduled message itself', async () => {
    let mark: TestReplica;
    ({ world, replicas: { mark } } = await syncedWorld('mark'));
    const at = Math.floor(world.clock.now() / 1000) + DELAY_SECONDS;
    expect((await mark.api.post('/scheduled_messages', { type: 'channel', to: IDS.general, topic: 'at home', content: 'still on time', scheduled_delivery_timestamp: at })).status).toBe(200);
    // A change not yet pushed: the archive has it as the local message it already is.
    expect((await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'at home', content: 'unpushed' })).status).toBe(200);

    const archive = await exportRealm(mark.replica.engine);
    expect([archive.tables.sync_replica, archive.tables.sync_outbox, archive.tables.sync_refusals]).toEqual([[], [], []]);
    const home = await newEngine(world.clock, false);
    try {
      await importRealm(home, JSON.parse(JSON.stringify(archive)));
      const markAtHome = new Caller((request) => home.handle(request), userRow('mark').email, userRow('mark').api_key);
      world.clock.advance(DELAY_SECONDS * 1000);
      await home.scheduler.settled();
      expect((await topicOf(markAtHome, 'at home')).map((message) => (message as { content: string }).content)).toEqual(['unpushed', 'still on time']);
      expect((await markAtHome.get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
    } finally {
      home.close();
    }
  });
});
