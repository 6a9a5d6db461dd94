import { afterEach, describe, expect, it, vi } from 'vitest';
import { CALL_DEADLINE_MS, WAIT_GRACE_MS } from '../../src/sync/replica/hub-client.ts';
import { WAIT_SECONDS } from '../../src/sync/replica/sync-replica.ts';
import { IDS } from '../support/test-realm.ts';
import { eventsOf, relayWaiting, SyncWorld, syncedWorld, type TestReplica } from './sync-fixture.ts';

/**
 * A room's network that drops without a word (the trainer's laptop asleep, a Wi-Fi gone): no
 * reset, no refusal, the requests just never get an answer. The replica gives up on each call
 * after its deadline on the engine's clock, counts as offline, and loses nothing.
 */

let world: SyncWorld;
afterEach(() => world?.close());

const until = (check: () => unknown) => vi.waitFor(check, { timeout: 5000, interval: 10 });

/** The topic's messages on the hub, as mark sees them there. */
async function onHub(topic: string): Promise<string[]> {
  const { body } = await world.onHub('mark').get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, apply_markdown: false });
  return (body.messages as { subject: string; content: string }[]).filter((m) => m.subject === topic).map((m) => m.content);
}

describe('a replica whose hub stops answering without a word', () => {
  it('gives up on a push whose answer never comes, counts as offline, and has the change applied once when the link is back', async () => {
    let mark: TestReplica;
    ({ world, replicas: { mark } } = await syncedWorld('mark'));
    expect((await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'dark', content: 'into the dark' })).status).toBe(200);
    mark.link.hang = 'answer';
    const round = mark.replica.sync();
    await until(() => expect(mark.link.hanging).toEqual(['/push']));
    world.clock.advance(CALL_DEADLINE_MS);
    expect(await round).toBe('offline');
    expect(mark.replica.lastError?.message).toBe('the hub did not answer within 20 s');
    expect(mark.link.hanging).toEqual([]);
    // The hub acted on it; the replica cannot know, and keeps it pending.
    expect(await onHub('dark')).toEqual(['into the dark']);
    expect((await mark.replica.report()).pending).toBe(1);

    mark.link.hang = null;
    expect(await mark.replica.sync()).toBe('online');
    expect(await onHub('dark')).toEqual(['into the dark']);
    expect(await SyncWorld.messagesSeen(mark.api)).toEqual(await SyncWorld.messagesSeen(world.onHub('mark')));
  });

  it('gives up on a snapshot that never comes, and takes it once the link is back', async () => {
    world = await SyncWorld.create();
    const mia = await world.replicaOf('mia');
    mia.link.hang = 'request';
    const round = mia.replica.sync();
    await until(() => expect(mia.link.hanging).toEqual(['/snapshot']));
    world.clock.advance(CALL_DEADLINE_MS);
    // A snapshot carries the user's whole realm: it has longer.
    expect(mia.link.hanging).toEqual(['/snapshot']);
    world.clock.advance(120_000 - CALL_DEADLINE_MS);
    expect(await round).toBe('offline');
    mia.link.hang = null;
    expect(await mia.replica.sync()).toBe('online');
    expect(await SyncWorld.messagesSeen(mia.api)).toEqual(await SyncWorld.messagesSeen(world.onHub('mia')));
  });

  it('keeps its live loop going when the answer to its wait never comes: offline, then caught up once the link is back', async () => {
    let mia: TestReplica;
    ({ world, replicas: { mia } } = await syncedWorld('mia'));
    const queue = mia.openQueue();
    mia.replica.start();
    await until(() => expect(relayWaiting(world.hubEngine, IDS.mia)).toBe(true));
    mia.link.hang = 'answer';
    await world.onHub('mark').post('/messages', { type: 'stream', to: 'general', topic: 'dark', content: 'while the room was dark' });
    await until(() => expect(mia.link.hanging).toEqual(['/wait']));
    world.clock.advance(WAIT_SECONDS * 1000 + WAIT_GRACE_MS);
    // The loop moves on to a round, whose pull hangs in turn and is given up.
    await until(() => expect(mia.link.hanging).toEqual(['/pull']));
    world.clock.advance(CALL_DEADLINE_MS);
    await until(async () => expect(await mia.replica.status()).toBe('offline'));
    expect(eventsOf(queue, 'message')).toEqual([]);

    mia.link.hang = null;
    // Mia writes on meanwhile: her change wakes the loop, which pushes it and brings the hub's.
    await mia.api.post('/messages', { type: 'stream', to: 'general', topic: 'dark', content: 'is anyone there?' });
    await until(async () => expect(await mia.replica.status()).toBe('online'));
    await until(() =>
      expect(eventsOf(queue, 'message').map((event) => (event.message as { content: string }).content)).toContain('<p>while the room was dark</p>'),
    );
    expect(await onHub('dark')).toEqual(['while the room was dark', 'is anyone there?']);
  });
});
