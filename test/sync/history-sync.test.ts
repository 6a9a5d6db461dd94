import { afterEach, describe, expect, it } from 'vitest';
import { historyPage } from '../../src/sync/hub/history.ts';
import { readSnapshot } from '../../src/engine/services/run-action.ts';
import { IDS } from '../support/test-realm.ts';
import { type Caller, eventsOf, expectNoResync, SyncWorld, syncedReplicas, type WatchedReplica, watchedReplicas, watchedWorld } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

const MESSAGE_EVENTS = ['message', 'update_message', 'delete_message', 'reaction', 'update_message_flags'];

/** A channel's messages as its user sees them: ids, content and flags, oldest first (or the refusal). */
async function channelPage(api: Caller, channel: string): Promise<unknown> {
  const narrow = JSON.stringify([{ operator: 'channel', operand: channel }]);
  const { status, body } = await api.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow, apply_markdown: false });
  if (status !== 200) return { status, code: body.code };
  return (body.messages as Record<string, any>[]).map((m) => ({ id: m.id, content: m.content, flags: [...(m.flags as string[])].sort() }));
}

/** The replica shows the channel as its user sees it on the hub. */
async function expectSameChannel(replica: WatchedReplica, channel: string): Promise<void> {
  expect(await channelPage(replica.api, channel)).toEqual(await channelPage(world.onHub(replica.user), channel));
}

/** The messages of a channel the replica's database holds, by id. */
async function heldIds(replica: WatchedReplica, channelId: number): Promise<number[]> {
  return (await replica.replica.engine.db.messages.where('[stream_id+id]').between([channelId, 0], [channelId, Infinity]).toArray()).map((m) => m.id);
}

async function send(user: 'olivia' | 'mark', channel: string, content: string): Promise<number> {
  const sent = await world.onHub(user).post('/messages', { type: 'stream', to: channel, topic: 'history', content });
  expect(sent.status).toBe(200);
  return sent.body.id as number;
}

/** Olivia creates a private channel on the hub for herself and Mark, and they post in it before anyone else joins; `earlier`: its messages then (the notification bot's first). */
async function privateChannel(name: string, sharesHistory: boolean): Promise<{ id: number; earlier: number[] }> {
  const created = await world.onHub('olivia').post('/users/me/subscriptions', {
    subscriptions: [{ name }],
    principals: [IDS.olivia, IDS.mark],
    invite_only: true,
    history_public_to_subscribers: sharesHistory,
  });
  expect(created.status).toBe(200);
  const id = (await world.hubEngine.db.channels.where('name_key').equals(name).first())!.id;
  await send('olivia', name, `${name} one`);
  await send('mark', name, `${name} two`);
  const earlier = await world.hubEngine.db.messages.where('[stream_id+id]').between([id, 0], [id, Infinity]).primaryKeys();
  expect(earlier).toHaveLength(3);
  return { id, earlier };
}

describe('channel history on a replica', () => {
  it("a public channel's messages show on a member's replica as on the hub, subscribed or not, and tell her clients nothing", async () => {
    ({ world } = await watchedWorld());
    const earlier = [await send('mark', 'design', 'before Mia came'), await send('olivia', 'design', 'still before')];
    const { mia } = await watchedReplicas(world, 'mia');
    expect(await heldIds(mia, IDS.design)).toEqual(earlier);
    await expectSameChannel(mia, 'design');

    const later = await send('mark', 'design', 'while Mia reads along');
    expect(await mia.replica.sync()).toBe('online');
    expect(await heldIds(mia, IDS.design)).toEqual([...earlier, later]);
    await expectSameChannel(mia, 'design');
    // Not a recipient: a client of the hub hears nothing of it, and neither does the replica's.
    expect(eventsOf(mia.hubQueue, ...MESSAGE_EVENTS)).toEqual([]);
    expect(eventsOf(mia.queue, ...MESSAGE_EVENTS)).toEqual([]);

    expect((await mia.api.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] })).status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');
    await expectSameChannel(mia, 'design');
    expectNoResync(mia);
  });

  it("an edit of channel history reaches a non-subscriber's replica silently, a subscriber's clients as the hub tells them", async () => {
    ({ world } = await watchedWorld());
    const id = await send('mark', 'design', 'first words');
    const { mia } = await watchedReplicas(world, 'mia');

    expect((await world.onHub('mark').patch(`/messages/${id}`, { content: 'second words' })).status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');
    await expectSameChannel(mia, 'design');
    expect(eventsOf(mia.hubQueue, 'update_message')).toEqual([]);
    expect(eventsOf(mia.queue, 'update_message')).toEqual([]);

    expect((await mia.api.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] })).status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');
    expect((await world.onHub('mark').patch(`/messages/${id}`, { content: 'third words' })).status).toBe(200);
    expect((await world.onHub('mark').post(`/messages/${id}/reactions`, { emoji_name: 'tada' })).status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');
    await expectSameChannel(mia, 'design');
    const told = eventsOf(mia.hubQueue, 'update_message', 'reaction');
    expect(told.map((event) => event.type)).toEqual(['update_message', 'reaction']);
    expect(eventsOf(mia.queue, 'update_message', 'reaction')).toEqual(told);

    expect((await world.onHub('olivia').delete(`/messages/${id}`)).status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');
    expect(await heldIds(mia, IDS.design)).toEqual([]);
    expect(eventsOf(mia.queue, 'delete_message')).toEqual(eventsOf(mia.hubQueue, 'delete_message'));
    expect(eventsOf(mia.queue, 'delete_message')).toHaveLength(1);
  });

  it("a guest's replica holds no public channel's history she is not subscribed to", async () => {
    ({ world } = await watchedWorld());
    await send('mark', 'design', 'members only, for a guest');
    const { gail } = await watchedReplicas(world, 'gail');
    await send('mark', 'design', 'still not for a guest');
    expect(await gail.replica.sync()).toBe('online');
    expect(await heldIds(gail, IDS.design)).toEqual([]);
    expect(await channelPage(world.onHub('gail'), 'design')).toEqual([]);
  });

  it('subscribed on the hub to a private channel that shares its history, a replica fetches that history; removed, the history goes', async () => {
    ({ world } = await watchedWorld());
    const { mia } = await watchedReplicas(world, 'mia');
    const shared = await privateChannel('shared-plans', true);
    expect(await mia.replica.sync()).toBe('online');
    expect(await heldIds(mia, shared.id)).toEqual([]);

    expect((await world.onHub('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'shared-plans' }], principals: [IDS.mia] })).status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');
    expect(await heldIds(mia, shared.id)).toEqual(shared.earlier);
    await expectSameChannel(mia, 'shared-plans');
    expect(eventsOf(mia.queue, 'subscription').map((event) => event.op)).toEqual(['add']);
    expect((await mia.replica.engine.db.sync_replica.get(1))?.history_channel_ids).toContain(shared.id);

    const after = await send('mark', 'shared-plans', 'Mia is here now');
    expect((await world.onHub('olivia').delete('/users/me/subscriptions', { subscriptions: ['shared-plans'], principals: [IDS.mia] })).status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');
    // What she received stays hers, as on the hub; the history she only could read goes.
    expect(await heldIds(mia, shared.id)).toEqual([after]);
    expect((await mia.replica.engine.db.sync_replica.get(1))?.history_channel_ids).not.toContain(shared.id);
    expectNoResync(mia);
  });

  it('subscribed to a private channel that keeps its history, a replica gets only what comes after', async () => {
    ({ world } = await watchedWorld());
    const { mia } = await watchedReplicas(world, 'mia');
    const closed = await privateChannel('closed-plans', false);
    expect((await world.onHub('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'closed-plans' }], principals: [IDS.mia] })).status).toBe(200);
    const after = await send('mark', 'closed-plans', 'from now on');
    expect(await mia.replica.sync()).toBe('online');
    expect(await heldIds(mia, closed.id)).toEqual([after]);
    await expectSameChannel(mia, 'closed-plans');
  });

  it('a replica that held no history (made before it) fetches every channel its user may read at its next round', async () => {
    ({ world } = await watchedWorld());
    const earlier = await send('olivia', 'design', 'from before the upgrade');
    const [mia] = Object.values(await syncedReplicas(world, 'mia'));
    const db = mia!.replica.engine.db;
    await db.messages.delete(earlier);
    await db.sync_replica.update(1, { history_channel_ids: undefined });
    expect(await mia!.replica.sync()).toBe('online');
    expect((await db.messages.get(earlier))?.content).toBe('from before the upgrade');
    expect(new Set((await db.sync_replica.get(1))?.history_channel_ids)).toEqual(new Set([IDS.general, IDS.design, IDS.announce, IDS.strict]));
  });
});

describe("the hub's history pages", () => {
  it('page newest first from `before`, skip what the caller received, and say where the next page starts', async () => {
    ({ world } = await watchedWorld());
    const ids = [];
    for (let n = 1; n <= 5; n++) ids.push(await send(n === 3 ? 'olivia' : 'mark', 'design', `page ${n}`));
    // Olivia, a subscriber, received them all; Mia received none.
    const page = (who: 'olivia' | 'mia', before: number) =>
      readSnapshot(world.hubEngine, async (db) => {
        const caller = (await db.users.get(IDS[who]))!;
        const answer = await historyPage(db, caller, IDS.design, before, 2);
        return { ids: answer.messages.map((bundle) => [bundle.message.id, bundle.user_message]), before: answer.before };
      });
    expect(await page('mia', Number.MAX_SAFE_INTEGER)).toEqual({ ids: [[ids[4], null], [ids[3], null]], before: ids[3] });
    expect(await page('mia', ids[3]!)).toEqual({ ids: [[ids[2], null], [ids[1], null]], before: ids[1] });
    expect(await page('mia', ids[1]!)).toEqual({ ids: [[ids[0], null]], before: null });
    expect(await page('olivia', Number.MAX_SAFE_INTEGER)).toEqual({ ids: [], before: ids[3] });
  });

  it("answer a channel whose history the caller may not read with nothing, and refuse a malformed ask", async () => {
    ({ world } = await watchedWorld());
    const [mia] = Object.values(await syncedReplicas(world, 'mia'));
    const { hub_id, epoch } = (await mia!.replica.engine.db.sync_replica.get(1))!;
    expect(await world.peerCall('mia', 'POST', '/history', { hub_id, epoch, channel_id: IDS.secret })).toEqual({
      status: 200,
      body: { result: 'success', msg: '', messages: [], before: null },
    });
    expect(await world.peerCall('mia', 'POST', '/history', { hub_id, epoch, channel_id: 'design' })).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_REQUEST' } });
    expect(await world.peerCall('mia', 'POST', '/history', { hub_id, epoch, channel_id: IDS.design, before: 0 })).toMatchObject({ status: 400 });
    expect(await world.peerCall('mia', 'POST', '/history', { hub_id: 'elsewhere', epoch, channel_id: IDS.design })).toMatchObject({ status: 409, body: { code: 'SYNC_RESYNC_NEEDED' } });
    expect(await world.peerCall(null, 'POST', '/history', { hub_id, epoch, channel_id: IDS.design })).toMatchObject({ status: 401 });
  });

  it('give a replica of version 2 neither history in its snapshot nor history in its pulls', async () => {
    ({ world } = await watchedWorld());
    await send('mark', 'design', 'for version 3 only');
    const snapshot = await world.peerCall('mia', 'GET', '/snapshot?version=2');
    expect(snapshot.status).toBe(200);
    expect(snapshot.body.history_channel_ids).toBeUndefined();
    expect((snapshot.body.tables.messages as { stream_id?: number }[]).filter((m) => m.stream_id === IDS.design)).toEqual([]);
    const { hub_id, epoch } = snapshot.body;
    const pulled = await world.peerCall('mia', 'POST', '/pull?version=2', { hub_id, epoch, cursor: 0 });
    expect(pulled.body.messages.filter((bundle: { user_message: unknown }) => bundle.user_message === null)).toEqual([]);
  });
});

describe('a long channel history', () => {
  it('comes a page at a time, with the changes of both sides going on between pages', async () => {
    ({ world } = await watchedWorld());
    const { mia } = await watchedReplicas(world, 'mia');
    const channel = await privateChannel('long-history', true);
    // Past one page (1,000 messages): the hub's rows, as sends would leave them.
    for (let n = 0; n < 1_000; n++) await send('mark', 'long-history', `line ${n}`);
    expect((await world.onHub('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'long-history' }], principals: [IDS.mia] })).status).toBe(200);
    // Mia and Olivia send while the first page is on its way: both reach the other side before the second page is asked for.
    let histories = 0;
    mia.link.beforeHub = async (path) => {
      if (!path.endsWith('/history') || ++histories > 1) return;
      expect((await mia.api.post('/messages', { type: 'stream', to: 'general', topic: 'meanwhile', content: 'sent during the history' })).status).toBe(200);
      await send('olivia', 'general', 'from the hub during the history');
    };
    expect(await mia.replica.sync()).toBe('online');
    const calls = mia.link.calls.map((path) => path.replace('/sync/v1/', ''));
    expect(calls.slice(calls.indexOf('history'))).toEqual(['history', 'push', 'pull', 'history']);
    expect(await heldIds(mia, channel.id)).toEqual(await world.hubEngine.db.messages.where('[stream_id+id]').between([channel.id, 0], [channel.id, Infinity]).primaryKeys());
    await expectSameChannel(mia, 'long-history');
    await expectSameChannel(mia, 'general');
  }, 60_000);
});
