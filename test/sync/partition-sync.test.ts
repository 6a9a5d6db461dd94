import { afterEach, describe, expect, it } from 'vitest';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { IDS } from '../support/test-realm.ts';
import { eventsOf, SyncWorld, syncedWorld, type TestReplica } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

async function syncedPair(): Promise<Record<'mark' | 'mia', TestReplica>> {
  let replicas;
  ({ world, replicas } = await syncedWorld('mark', 'mia'));
  return replicas;
}

async function expectConverged(...replicas: TestReplica[]): Promise<void> {
  for (const { replica, api, user } of replicas) {
    expect(await SyncWorld.messagesSeen(api)).toEqual(await SyncWorld.messagesSeen(world.onHub(user)));
    expect(await replica.engine.db.messages.where('id').aboveOrEqual(PROVISIONAL_ID_BASE).count()).toBe(0);
    expect(await replica.status()).toBe('online');
  }
}

describe('replicas during a partition', () => {
  it('keep working on both sides and converge with the hub once healed, every change applied exactly once', async () => {
    const { mark, mia } = await syncedPair();
    mark.link.cut = true;
    mia.link.cut = true;

    const m1 = await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'offline', content: 'm1' });
    await mark.api.patch(`/messages/${m1.body.id}`, { content: 'm1 edited' });
    await mark.api.post(`/messages/${m1.body.id}/reactions`, { emoji_name: 'smile' });
    await mark.api.post('/messages/1/reactions', { emoji_name: 'octopus' });
    await mark.api.post('/messages/flags', { messages: [2], op: 'add', flag: 'starred' });
    const dm = await mark.api.post('/messages', { type: 'direct', to: JSON.stringify([IDS.mia]), content: 'psst' });
    expect([m1.body.id, dm.body.id]).toEqual([PROVISIONAL_ID_BASE, PROVISIONAL_ID_BASE + 1]);

    const i1 = await mia.api.post('/messages', { type: 'stream', to: 'general', topic: 'offline', content: 'i1' });
    const i2 = await mia.api.post('/messages', { type: 'stream', to: 'general', topic: 'offline', content: 'i2, a mistake' });
    expect((await mia.api.delete(`/messages/${i2.body.id}`)).status).toBe(200);
    await mia.api.post('/messages/2/reactions', { emoji_name: 'tada' });
    await mia.api.post('/messages/flags', { messages: [1, i1.body.id], op: 'add', flag: 'starred' });

    expect(await mark.replica.sync()).toBe('offline');
    expect(await mark.replica.status()).toBe('offline');

    // The hub applies mark's changes but its answer is lost: a retry must not apply them again.
    mark.link.cut = false;
    mark.link.loseAnswers = true;
    expect(await mark.replica.sync()).toBe('offline');
    mark.link.loseAnswers = false;
    mia.link.cut = false;
    expect(await mark.replica.sync()).toBe('online');
    expect(await mia.replica.sync()).toBe('online');
    expect(await mark.replica.sync()).toBe('online');

    const hubMessages = await world.hubEngine.db.messages.toArray();
    expect(hubMessages.map((m) => [m.id, m.content])).toEqual([
      [1, 'Welcome **everyone**'],
      [2, 'Thanks @**Olivia Owner**'],
      [3, 'secret plans'],
      [4, 'a direct hello'],
      [5, 'm1 edited'],
      [6, 'psst'],
      [7, 'i1'],
    ]);
    const reactions = await world.hubEngine.db.reactions.toArray();
    expect(reactions.map((r) => `${r.message_id}:${r.user_id}:${r.emoji_name}`).sort()).toEqual([
      `1:${IDS.mark}:octopus`,
      `2:${IDS.mia}:tada`,
      `5:${IDS.mark}:smile`,
    ]);
    await expectConverged(mark, mia);
    expect(await mark.replica.refusals()).toEqual([]);
    expect(await mia.replica.refusals()).toEqual([]);
  });

  it('tells the sending client its message\'s final id through events: no duplicate, no ghost', async () => {
    const { mark, mia } = await syncedPair();
    const markQueue = mark.openQueue();
    const miaQueue = mia.openQueue();
    mark.link.cut = true;

    const sent = await mark.api.post('/messages', {
      type: 'stream',
      to: 'general',
      topic: 'echo',
      content: 'hello',
      queue_id: markQueue.id,
      local_id: '2.01',
    });
    const provisional = sent.body.id as number;
    expect(await mark.replica.sync()).toBe('offline');
    mark.link.cut = false;
    expect(await mark.replica.sync()).toBe('online');
    expect(await mia.replica.sync()).toBe('online');

    const markEvents = eventsOf(markQueue, 'message', 'delete_message');
    expect(markEvents.map((e) => [e.type, (e.message as { id: number } | undefined)?.id ?? e.message_id, e.local_message_id])).toEqual([
      ['message', provisional, '2.01'],
      ['message', 5, '2.01'],
      ['delete_message', provisional, undefined],
    ]);
    expect(eventsOf(miaQueue, 'message', 'delete_message').map((e) => (e.message as { id: number }).id)).toEqual([5]);
    expect(await mark.replica.engine.db.messages.get(provisional)).toBeUndefined();
    await expectConverged(mark, mia);
  });

  it('reports a change the hub refuses and rolls the replica back to the hub\'s state', async () => {
    const { mark } = await syncedPair();
    mark.link.cut = true;
    const sent = await mark.api.post('/messages', { type: 'stream', to: 'secret', topic: 'plans', content: 'still here?' });
    expect(sent.status).toBe(200);
    expect((await mark.api.post('/messages/2/reactions', { emoji_name: 'eyes' })).status).toBe(200);

    // Meanwhile on the hub, the owner takes mark out of the private channel and deletes his message.
    const removed = await world.onHub('olivia').delete('/users/me/subscriptions', { subscriptions: ['secret'], principals: [IDS.mark] });
    expect(removed.status).toBe(200);
    expect((await world.onHub('olivia').delete('/messages/2')).status).toBe(200);
    mark.link.cut = false;
    expect(await mark.replica.sync()).toBe('online');

    const refusals = await mark.replica.refusals();
    expect(refusals.map(({ path, status, code, msg }) => ({ path, status, code, msg }))).toEqual([
      { path: '/messages', status: 400, code: 'BAD_REQUEST', msg: "Not authorized to send to channel 'secret'" },
      { path: '/messages/2/reactions', status: 400, code: 'BAD_REQUEST', msg: 'Invalid message(s)' },
    ]);
    const db = mark.replica.engine.db;
    expect(await db.messages.get(sent.body.id)).toBeUndefined();
    expect(await db.messages.get(2)).toBeUndefined();
    expect(await db.reactions.toArray()).toEqual([]);
    const subscriptions = await mark.api.get('/users/me/subscriptions');
    expect(subscriptions.body.subscriptions.map((s: { name: string }) => s.name)).not.toContain('secret');
    expect(await SyncWorld.messagesSeen(mark.api)).toEqual(await SyncWorld.messagesSeen(world.onHub('mark')));
    expect(await world.hubEngine.db.messages.count()).toBe(3);
    expect(await world.hubEngine.db.reactions.count()).toBe(0);
  });

  it('resyncs fully after the hub was reset and offers its unpushed send again', async () => {
    const { mark } = await syncedPair();
    mark.link.cut = true;
    const sent = await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'after', content: 'across the reset' });
    await mark.api.post('/messages/2/reactions', { emoji_name: 'octopus' });

    await world.hubEngine.loadScenario((await import('../support/test-realm.ts')).TEST_SCENARIO);
    mark.link.cut = false;
    expect(await mark.replica.sync()).toBe('online');

    const hubMessages = await world.hubEngine.db.messages.toArray();
    expect(hubMessages.map((m) => m.content)).toEqual(['Welcome **everyone**', 'Thanks @**Olivia Owner**', 'secret plans', 'a direct hello', 'across the reset']);
    expect(await world.hubEngine.db.reactions.count()).toBe(0);
    const refusals = await mark.replica.refusals();
    expect(refusals.map(({ path, code }) => ({ path, code }))).toEqual([{ path: '/messages/2/reactions', code: 'SYNC_HUB_RESET' }]);
    expect(await mark.replica.engine.db.messages.get(sent.body.id)).toBeUndefined();
    await expectConverged(mark);
  });

  it('never lets a pull hide a local change made while the round was under way', async () => {
    const { mark } = await syncedPair();
    const queue = mark.openQueue();
    await world.onHub('mia').post('/messages/1/reactions', { emoji_name: 'tada' });
    mark.link.beforeHub = async (path) => {
      if (!path.endsWith('/pull')) return;
      mark.link.beforeHub = null;
      expect((await mark.api.post('/messages/1/reactions', { emoji_name: 'octopus' })).status).toBe(200);
    };
    expect(await mark.replica.sync()).toBe('online');

    const reactionEvents = eventsOf(queue, 'reaction').map((e) => `${e.op} ${e.user_id} ${e.emoji_name}`);
    expect(reactionEvents).toEqual([`add ${IDS.mark} octopus`, `add ${IDS.mia} tada`]);
    await expectConverged(mark);
  });
});
