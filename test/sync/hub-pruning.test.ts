import { afterEach, describe, expect, it } from 'vitest';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { SyncWorld, type TestReplica } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

const recordedIds = async (replica: TestReplica) => {
  const state = (await replica.replica.engine.db.sync_replica.get(1))!;
  const rows = await world.hubEngine.db.sync_mutations.where('[client_id+mutation_id]').between([state.client_id, 0], [state.client_id, Infinity]).toArray();
  return rows.map((row) => row.mutation_id);
};

const send = (replica: TestReplica, content: string) => replica.api.post('/messages', { type: 'stream', to: 'general', topic: 'pruning', content });

describe('the hub\'s record of pushed changes', () => {
  it('keeps a client\'s results only until its next push shows them settled', async () => {
    world = await SyncWorld.create();
    const mark = await world.replicaOf('mark');
    expect(await mark.replica.sync()).toBe('online');
    for (const content of ['one', 'two', 'three']) await send(mark, content);
    expect(await mark.replica.sync()).toBe('online');
    expect(await recordedIds(mark)).toEqual([1, 2, 3]);

    await send(mark, 'four');
    expect(await mark.replica.sync()).toBe('online');
    expect(await recordedIds(mark)).toEqual([4]);
    expect((await world.hubEngine.db.sync_clients.toArray()).map((c) => c.last_mutation_id)).toEqual([4]);
  });

  it('still answers a retry whose first answer was lost with the recorded results', async () => {
    world = await SyncWorld.create();
    const mark = await world.replicaOf('mark');
    expect(await mark.replica.sync()).toBe('online');
    await send(mark, 'one');
    mark.link.loseAnswers = true;
    expect(await mark.replica.sync()).toBe('offline');
    mark.link.loseAnswers = false;
    await send(mark, 'two');
    expect(await mark.replica.sync()).toBe('online');
    expect((await world.hubEngine.db.messages.toArray()).filter((m) => m.topic === 'pruning').map((m) => m.content)).toEqual(['one', 'two']);
    expect(mark.link.pushResults.map((r) => [r.mutation_id, r.outcome])).toEqual([[1, 'applied'], [1, 'applied'], [2, 'applied']]);
  });

  it('is not needed for a change to a message whose send was acknowledged but not yet pulled', async () => {
    world = await SyncWorld.create();
    const mark = await world.replicaOf('mark');
    expect(await mark.replica.sync()).toBe('online');
    const sent = await send(mark, 'typo');
    expect(sent.body.id).toBe(PROVISIONAL_ID_BASE);
    mark.link.beforeHub = async (path) => {
      if (path.endsWith('/pull')) throw new TypeError('fetch failed');
    };
    expect(await mark.replica.sync()).toBe('offline');
    const [acked] = await mark.replica.engine.db.sync_outbox.toArray();
    expect(acked).toMatchObject({ state: 'acked', provisional_id: PROVISIONAL_ID_BASE, final_id: 5 });

    // The provisional message is still the one the replica shows: its edit names the hub's id when queued.
    expect((await mark.api.patch(`/messages/${PROVISIONAL_ID_BASE}`, { content: 'fixed' })).status).toBe(200);
    expect((await mark.replica.engine.db.sync_outbox.get(2))?.path).toBe('/messages/5');
    mark.link.beforeHub = null;
    expect(await mark.replica.sync()).toBe('online');
    expect(await recordedIds(mark)).toEqual([2]);
    expect((await world.hubEngine.db.messages.get(5))?.content).toBe('fixed');
    expect(await mark.replica.refusals()).toEqual([]);
    expect(await SyncWorld.messagesSeen(mark.api)).toEqual(await SyncWorld.messagesSeen(world.onHub('mark')));
  });

  it('is not needed for a change queued before its send was acknowledged and pushed after', async () => {
    world = await SyncWorld.create();
    const mark = await world.replicaOf('mark');
    expect(await mark.replica.sync()).toBe('online');
    await send(mark, 'typo');
    await mark.api.post(`/messages/${PROVISIONAL_ID_BASE}/reactions`, { emoji_name: 'octopus' });
    // The hub answers the send only, as a hub does that stops at a fault of its own.
    const pushOne = world.hub.handle.bind(world.hub);
    world.hub.handle = async (request) => {
      if (!new URL(request.url).pathname.endsWith('/push')) return pushOne(request);
      const body = await request.json();
      return pushOne(new Request(request.url, { method: 'POST', headers: request.headers, body: JSON.stringify({ ...body, mutations: body.mutations.slice(0, 1) }) }));
    };
    expect(await mark.replica.sync()).toBe('offline');
    expect((await mark.replica.engine.db.sync_outbox.get(2))?.path).toBe('/messages/5/reactions');

    world.hub.handle = pushOne;
    expect(await mark.replica.sync()).toBe('online');
    expect((await world.hubEngine.db.reactions.where('message_id').equals(5).toArray()).map((r) => r.emoji_name)).toEqual(['octopus']);
    expect(await mark.replica.refusals()).toEqual([]);
  });
});
