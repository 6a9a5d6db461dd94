import { afterEach, describe, expect, it, vi } from 'vitest';
import { RETRY_MS } from '../../src/sync/replica/sync-replica.ts';
import { eventsOf, SyncWorld, type TestReplica } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

async function liveReplicas(): Promise<{ mark: TestReplica; mia: TestReplica }> {
  world = await SyncWorld.create();
  const mark = await world.replicaOf('mark');
  const mia = await world.replicaOf('mia');
  for (const replica of [mark, mia]) {
    expect(await replica.replica.sync()).toBe('online');
    replica.replica.start();
  }
  return { mark, mia };
}

/** Mia's replica, live and waiting at the hub, with the peer calls it makes from then on. */
async function liveMiaWithCallLog(): Promise<{ mia: TestReplica; calls: string[] }> {
  world = await SyncWorld.create();
  const mia = await world.replicaOf('mia');
  expect(await mia.replica.sync()).toBe('online');
  const calls: string[] = [];
  mia.link.beforeHub = async (path) => void calls.push(path.slice('/sync/v1'.length));
  mia.replica.start();
  await vi.waitFor(() => expect(calls).toContain('/wait'), { timeout: 5000, interval: 10 });
  calls.length = 0;
  return { mia, calls };
}

const contents = (queue: ReturnType<TestReplica['openQueue']>) =>
  eventsOf(queue, 'message').map((e) => (e.message as { content: string }).content);

describe('replicas kept in sync by their live loops', () => {
  it('show a message sent on one replica in the other\'s event queue within a second, with no call to sync', async () => {
    const { mark, mia } = await liveReplicas();
    const miaQueue = mia.openQueue();
    await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'live', content: 'right away' });
    await vi.waitFor(() => expect(contents(miaQueue)).toEqual(['<p>right away</p>']), { timeout: 1000, interval: 10 });
    await vi.waitFor(async () => expect(await mark.replica.status()).toBe('online'), { timeout: 5000, interval: 10 });
  });

  it('show a change on the hub from the page the hub\'s wait answers with, before any pull', async () => {
    world = await SyncWorld.create();
    const mia = await world.replicaOf('mia');
    expect(await mia.replica.sync()).toBe('online');
    const miaQueue = mia.openQueue();
    // Once the live loop waits for the hub, no pull gets through.
    let waiting = false;
    mia.link.beforeHub = async (path) => {
      if (path.endsWith('/wait')) waiting = true;
      if (waiting && path.endsWith('/pull')) throw new TypeError('fetch failed');
    };
    mia.replica.start();
    await vi.waitFor(() => expect(waiting).toBe(true), { timeout: 5000, interval: 10 });
    await world.onHub('mark').post('/messages', { type: 'stream', to: 'general', topic: 'live', content: 'from the wait' });
    await vi.waitFor(() => expect(contents(miaQueue)).toEqual(['<p>from the wait</p>']), { timeout: 5000, interval: 10 });
    expect(await SyncWorld.messagesSeen(mia.api)).toEqual(await SyncWorld.messagesSeen(world.onHub('mia')));
  });

  it('wait for the hub again right after a wait page that left nothing to pull, with no round in between', async () => {
    const { mia, calls } = await liveMiaWithCallLog();
    const miaQueue = mia.openQueue();
    await world.onHub('mark').post('/messages', { type: 'stream', to: 'general', topic: 'live', content: 'one page' });
    await vi.waitFor(() => expect(contents(miaQueue)).toEqual(['<p>one page</p>']), { timeout: 5000, interval: 10 });
    await vi.waitFor(() => expect(calls).toEqual(['/wait']), { timeout: 5000, interval: 10 });
    expect(await mia.replica.status()).toBe('online');
  });

  it('push a queued change with one round, and start none for a write that is never pushed', async () => {
    const { mia, calls } = await liveMiaWithCallLog();
    expect((await mia.api.post('/users/me/presence', { status: 'active' })).status).toBe(200);
    expect((await mia.api.post('/messages', { type: 'stream', to: 'general', topic: 'live', content: 'one round' })).status).toBe(200);
    // The presence report goes on to the hub by itself, outside any round, and its echo wakes no wait.
    const rounds = () => calls.filter((call) => call !== '/ephemeral');
    await vi.waitFor(() => expect({ rounds: rounds(), relayed: calls.length - rounds().length }).toEqual({ rounds: ['/push', '/pull', '/wait'], relayed: 1 }), {
      timeout: 5000,
      interval: 10,
    });
    expect(await mia.replica.status()).toBe('online');
  });

  it('push a change made while a wait page is being applied, wherever it lands in the loop', async () => {
    const { mark, mia } = await liveReplicas();
    const markQueue = mark.openQueue();
    const hubChange = world.onHub('olivia').post('/messages', { type: 'stream', to: 'general', topic: 'live', content: 'from the hub' });
    const localChange = mia.api.post('/messages', { type: 'stream', to: 'general', topic: 'live', content: 'from mia' });
    expect((await hubChange).status).toBe(200);
    expect((await localChange).status).toBe(200);
    await vi.waitFor(() => expect(contents(markQueue).sort()).toEqual(['<p>from mia</p>', '<p>from the hub</p>']), { timeout: 5000, interval: 10 });
    await vi.waitFor(async () => expect(await mia.replica.status()).toBe('online'), { timeout: 5000, interval: 10 });
    await vi.waitFor(async () => expect(await SyncWorld.messagesSeen(mia.api)).toEqual(await SyncWorld.messagesSeen(world.onHub('mia'))), {
      timeout: 5000,
      interval: 10,
    });
  });

  it('retry while the hub is out of reach and deliver once the link is back', async () => {
    const { mark, mia } = await liveReplicas();
    const miaQueue = mia.openQueue();
    mark.link.cut = true;
    await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'live', content: 'queued' });
    await vi.waitFor(async () => expect(await mark.replica.status()).toBe('offline'), { timeout: 5000, interval: 10 });
    expect(mark.replica.lastError?.message).toBe('fetch failed');

    mark.link.cut = false;
    world.clock.advance(RETRY_MS);
    await vi.waitFor(() => expect(contents(miaQueue)).toEqual(['<p>queued</p>']), { timeout: 5000, interval: 10 });
    await vi.waitFor(() => expect(mark.replica.lastError).toBeNull(), { timeout: 5000, interval: 10 });
  });

  it('show online again once the hub answers, after a write forwarded while it was out of reach (the loop waiting at the hub all along)', async () => {
    const { mia, calls } = await liveMiaWithCallLog();
    // The wait in flight stays open at the hub: only new calls meet the cut.
    mia.link.cut = true;
    const created = await mia.api.post('/users/me/subscriptions', { subscriptions: [{ name: 'brand new' }] });
    expect([created.status, created.body.code]).toEqual([503, 'SYNC_HUB_UNREACHABLE']);
    await vi.waitFor(async () => expect(await mia.replica.status()).toBe('offline'), { timeout: 5000, interval: 10 });

    mia.link.cut = false;
    await vi.waitFor(
      async () => {
        world.clock.advance(RETRY_MS);
        expect(await mia.replica.status()).toBe('online');
      },
      { timeout: 5000, interval: 10 },
    );
    expect(mia.replica.lastError).toBeNull();
    expect(calls).toContain('/pull');
  });

  it('stop for good when stopped: a later change stays pending', async () => {
    const { mark } = await liveReplicas();
    await mark.replica.stop();
    await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'live', content: 'stays here' });
    expect(await mark.replica.status()).toBe('pending:1');
  });
});
