import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/engine/events/event-types.ts';
import { IDS, openQueue } from '../support/test-realm.ts';
import { PROVISIONAL_ID_BASE, type PullAnswer, SYNC_VERSION } from '../../src/sync/protocol.ts';
import { applyChanges } from '../../src/sync/replica/apply-changes.ts';
import { eventsOf, expectFeedKeptThroughArchive, expectFeedPulledAgainTellsNothing, expectNoResync, expectOpen, SyncWorld, syncedWorld, type TestReplica, userRow, watchedWorld } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

const ENTITY_EVENTS = ['stream', 'subscription', 'realm_user'];

/** The hub's answer to a pull of the replica's user, from the start of the feed unless told. */
async function pull(replica: TestReplica, from: { cursor?: number; limit?: number } = {}): Promise<PullAnswer> {
  const { hub_id, epoch } = (await replica.replica.engine.db.sync_replica.get(1))!;
  const row = userRow(replica.user);
  const response = await world.hub.handle(
    new Request(`http://hub.test/sync/v1/pull?version=${SYNC_VERSION}`, {
      method: 'POST',
      headers: { Authorization: `Basic ${btoa(`${row.email}:${row.api_key}`)}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ hub_id, epoch, cursor: from.cursor ?? 0, limit: from.limit }),
    }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as PullAnswer;
}

/** What the replica's user sees of subscriptions, channels and users, locally and on the hub, is the same. */
async function expectSameView(replica: TestReplica): Promise<void> {
  const hub = world.onHub(replica.user);
  for (const [path, params, field] of [
    ['/users/me/subscriptions', { include_subscribers: true }, 'subscriptions'],
    ['/streams', {}, 'streams'],
    ['/users', {}, 'members'],
  ] as const) {
    const [local, onHub] = [await replica.api.get(path, params), await hub.get(path, params)];
    expect([path, local.status, local.body.msg]).toEqual([path, 200, '']);
    expect(local.body[field]).toEqual(onHub.body[field]);
  }
}

describe('subscriptions from a replica', () => {
  it('subscribe, change a colour and unsubscribe reach the hub, and the other replica hears of the new peer without a resync', async () => {
    const { world: synced, watched } = await watchedWorld('mark', 'mia');
    world = synced;
    const { mark, mia } = watched;

    expect((await mia.api.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] })).status).toBe(200);
    await mia.replica.sync();
    await mark.replica.sync();
    expect(eventsOf(mark.queue, 'subscription')).toEqual([{ type: 'subscription', op: 'peer_add', stream_ids: [IDS.design], user_ids: [IDS.mia] }]);

    const recolour = { subscription_data: [{ stream_id: IDS.design, property: 'color', value: '#a47462' }] };
    expect((await mia.api.post('/users/me/subscriptions/properties', recolour)).status).toBe(200);
    await mia.replica.sync();
    expect((await world.hubEngine.db.subscriptions.get([IDS.mia, IDS.design]))?.color).toBe('#a47462');

    expect((await mia.api.delete('/users/me/subscriptions', { subscriptions: ['design'] })).status).toBe(200);
    await mia.replica.sync();
    await mark.replica.sync();
    expect((await world.hubEngine.db.subscriptions.get([IDS.mia, IDS.design]))?.active).toBe(0);
    expect(eventsOf(mark.queue, 'subscription')).toEqual([
      { type: 'subscription', op: 'peer_add', stream_ids: [IDS.design], user_ids: [IDS.mia] },
      { type: 'subscription', op: 'peer_remove', stream_ids: [IDS.design], user_ids: [IDS.mia] },
    ]);
    // Mia's own queue has the events of her local changes, once: the hub's rows brought nothing new.
    expect(eventsOf(mia.queue, 'subscription').map((e) => [e.op, e.property ?? null])).toEqual([
      ['add', null],
      ['update', 'color'],
      ['remove', null],
    ]);
    for (const replica of [mark, mia]) {
      await expectSameView(replica);
      expect(await replica.replica.status()).toBe('online');
    }
    expectNoResync(mark, mia);
  });

  it("a colour changed on the hub reaches the replica's queue as the hub's own client hears it", async () => {
    const { world: synced, watched } = await watchedWorld('mark');
    world = synced;
    const { mark } = watched;
    const recolour = { subscription_data: [{ stream_id: IDS.general, property: 'is_muted', value: true }, { stream_id: IDS.design, property: 'color', value: '#c2c2c2' }] };
    expect((await world.onHub('mark').post('/users/me/subscriptions/properties', recolour)).status).toBe(200);
    await mark.replica.sync();

    expect(eventsOf(mark.queue, ...ENTITY_EVENTS)).toEqual(eventsOf(mark.hubQueue, ...ENTITY_EVENTS));
    expect(eventsOf(mark.queue, 'subscription').map((e) => [e.stream_id, e.property, e.value])).toEqual([
      [IDS.general, 'in_home_view', false],
      [IDS.general, 'is_muted', true],
      [IDS.design, 'color', '#c2c2c2'],
    ]);
    await expectSameView(mark);
    expectNoResync(mark);
  });
});

describe("a channel's first message", () => {
  it("sent on the hub moves the channel's first message id on the replicas, told as the hub tells it", async () => {
    const { world: synced, watched } = await watchedWorld('mark', 'mia');
    world = synced;
    const { mark, mia } = watched;
    const sent = await world.onHub('olivia').post('/messages', { type: 'stream', to: 'design', topic: 'first', content: 'the very first' });
    expect(sent.status).toBe(200);
    for (const replica of [mark, mia]) {
      expect(await replica.replica.sync()).toBe('online');
      const told = eventsOf(replica.hubQueue, 'stream');
      expect(told).toEqual([{ type: 'stream', op: 'update', stream_id: IDS.design, name: 'design', property: 'first_message_id', value: sent.body.id }]);
      expect(eventsOf(replica.queue, 'stream')).toEqual(told);
      await expectSameView(replica);
    }
    expectNoResync(mark, mia);
  });

  it("sent offline on a replica ends with the hub's id as the channel's first message id", async () => {
    const { world: synced, watched } = await watchedWorld('mark');
    world = synced;
    const { mark } = watched;
    mark.link.cut = true;
    expect((await mark.api.post('/messages', { type: 'stream', to: 'design', topic: 'first', content: 'first, offline' })).status).toBe(200);
    mark.link.cut = false;
    expect(await mark.replica.sync()).toBe('online');
    const onHub = (await world.hubEngine.db.channels.get(IDS.design))!.first_message_id;
    expect(onHub).toBeLessThan(PROVISIONAL_ID_BASE);
    expect((await mark.replica.engine.db.channels.get(IDS.design))?.first_message_id).toBe(onHub);
    await expectSameView(mark);
  });
});

/**
 * The hub's events as a replica can tell them: a channel created with its first message in one
 * hub transaction arrives in its state after that transaction (its first message id and
 * subscriber count in the objects), with no `first_message_id` update of its own.
 */
function asAfterCreation(events: EngineEvent[], after: { stream_id: number; first_message_id: number; subscriber_count: number }): EngineEvent[] {
  const settled = (object: Record<string, unknown>, fields: Record<string, unknown>) => (object.stream_id === after.stream_id ? { ...object, ...fields } : object);
  return events
    .filter((e) => !(e.type === 'stream' && e.property === 'first_message_id' && e.stream_id === after.stream_id))
    .map((e) => {
      if (e.type === 'stream' && e.op === 'create') {
        const streams = (e.streams as Record<string, unknown>[]).map((o) => settled(o, { first_message_id: after.first_message_id, subscriber_count: after.subscriber_count }));
        return { ...e, streams };
      }
      if (e.type === 'subscription' && e.op === 'add') {
        return { ...e, subscriptions: (e.subscriptions as Record<string, unknown>[]).map((o) => settled(o, { first_message_id: after.first_message_id })) };
      }
      return e;
    });
}

describe("an administrator's changes on the hub", () => {
  it("reach the replicas' queues registered before as the hub's own clients hear them, and their views equal the hub's", async () => {
    const { world: synced, watched } = await watchedWorld('mark', 'gail');
    world = synced;
    const { mark, gail } = watched;
    const adam = world.onHub('adam');
    const syncBoth = async () => {
      for (const { replica } of [mark, gail]) expect(await replica.sync()).toBe('online');
    };

    expect((await adam.post('/users/me/subscriptions', { subscriptions: [{ name: 'launch' }], principals: [IDS.mark] })).status).toBe(200);
    const launch = (await world.hubEngine.db.channels.where('name_key').equals('launch').first())!.id;
    const hidden = await adam.post('/users/me/subscriptions', { subscriptions: [{ name: 'hush' }], principals: [IDS.olivia], invite_only: true });
    expect(hidden.status).toBe(200);
    await syncBoth();
    expect((await adam.patch(`/streams/${launch}`, { new_name: 'liftoff', description: 'Ready' })).status).toBe(200);
    await syncBoth();
    const nina = await world.onHub('olivia').post('/users', { email: 'nina@zulip.test', password: 'nina-pass-1234', full_name: 'Nina New' });
    expect(nina.status).toBe(200);
    await syncBoth();
    expect((await adam.patch(`/users/${IDS.mark}`, { full_name: 'Mark Renamed' })).status).toBe(200);
    await syncBoth();
    expect((await adam.delete(`/users/${IDS.mia}`)).status).toBe(200);
    await syncBoth();
    expect((await adam.delete(`/streams/${launch}`)).status).toBe(200);
    await syncBoth();

    const firstMessage = (await world.hubEngine.db.channels.get(launch))!.first_message_id!;
    const created = { stream_id: launch, first_message_id: firstMessage, subscriber_count: 1 };
    for (const { queue, hubQueue } of [mark, gail]) expect(eventsOf(queue, ...ENTITY_EVENTS)).toEqual(asAfterCreation(eventsOf(hubQueue, ...ENTITY_EVENTS), created));
    expect(eventsOf(mark.queue, ...ENTITY_EVENTS).map((e) => [e.type, e.op, e.property ?? null])).toEqual([
      ['stream', 'create', null],
      ['subscription', 'add', null],
      ['stream', 'update', 'description'],
      ['stream', 'update', 'name'],
      ['realm_user', 'add', null],
      ['subscription', 'peer_add', null],
      ['realm_user', 'update', null],
      ['realm_user', 'update', null],
      ['subscription', 'peer_remove', null],
      ['stream', 'delete', null],
    ]);
    expect(eventsOf(gail.queue, 'stream')).toEqual([]);
    for (const replica of [mark, gail]) await expectSameView(replica);
    expect(await gail.replica.engine.db.channels.where('name_key').anyOf('hush', 'launch', 'liftoff').count()).toBe(0);
    expectNoResync(mark, gail);

    // The whole feed pulled again changes nothing and tells nothing.
    await expectFeedPulledAgainTellsNothing(mark, gail);
    for (const replica of [mark, gail]) await expectSameView(replica);
  });

  it("never sends a guest's replica a private channel it may not see, and takes one away when the guest loses access", async () => {
    const { world: synced, replicas } = await syncedWorld('gail');
    world = synced;
    const { gail } = replicas;
    const queue = gail.openQueue();
    const onHub = openQueue(world.hubEngine, IDS.gail);
    const pulls: string[] = [];
    gail.link.beforeHub = async (path) => void pulls.push(path);
    const olivia = world.onHub('olivia');

    expect((await olivia.post('/users/me/subscriptions', { subscriptions: [{ name: 'hush' }], invite_only: true })).status).toBe(200);
    const hush = (await world.hubEngine.db.channels.where('name_key').equals('hush').first())!.id;
    expect((await olivia.patch(`/streams/${hush}`, { description: 'Still hidden' })).status).toBe(200);
    await gail.replica.sync();
    expect(await gail.replica.engine.db.channels.get(hush)).toBeUndefined();
    expect(await gail.replica.engine.db.subscriptions.where('[channel_id+active]').anyOf([[hush, 0], [hush, 1]]).count()).toBe(0);
    // The whole feed, pulled as the guest, names no channel beyond the ones she sees.
    const page = await pull(gail);
    expect([page.channels, page.removed_channels, page.realm_changed]).toEqual([undefined, undefined, false]);

    expect((await olivia.post('/users/me/subscriptions', { subscriptions: [{ name: 'hush' }], principals: [IDS.gail] })).status).toBe(200);
    await gail.replica.sync();
    expect((await gail.replica.engine.db.channels.get(hush))?.description).toBe('Still hidden');
    expect((await olivia.delete('/users/me/subscriptions', { subscriptions: ['hush'], principals: [IDS.gail] })).status).toBe(200);
    await gail.replica.sync();
    expect(await gail.replica.engine.db.channels.get(hush)).toBeUndefined();

    expect(eventsOf(queue, ...ENTITY_EVENTS)).toEqual(eventsOf(onHub, ...ENTITY_EVENTS));
    expect(eventsOf(queue, ...ENTITY_EVENTS).map((e) => [e.type, e.op])).toEqual([
      ['stream', 'create'],
      ['subscription', 'add'],
      ['subscription', 'remove'],
      ['stream', 'delete'],
    ]);
    await expectSameView(gail);
    expectOpen(gail, queue);
    expect(pulls.filter((path) => path.endsWith('/snapshot'))).toEqual([]);
  });
});

describe('a channel name given to another channel on the hub', () => {
  it("reaches the replica in one page with the channel that held it renamed after it: both end with the hub's names, and its clients are told the end state", async () => {
    const { world: synced, watched } = await watchedWorld('mark');
    world = synced;
    const { mark } = watched;
    const adam = world.onHub('adam');
    expect((await adam.patch(`/streams/${IDS.design}`, { new_name: 'drafting' })).status).toBe(200);
    expect((await adam.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [IDS.mark] })).status).toBe(200);
    // A later change of the renamed channel puts it after the new one in the page.
    expect((await adam.patch(`/streams/${IDS.design}`, { description: 'Sketches' })).status).toBe(200);

    expect(await mark.replica.sync()).toBe('online');
    await expectSameView(mark);
    const names = (await mark.api.get('/streams')).body.streams.map((s: { stream_id: number; name: string }) => [s.stream_id, s.name]);
    expect(names).toContainEqual([IDS.design, 'drafting']);
    // One page tells the end state (as a catch-up does): the new channel, and the renamed one's changes.
    const told = eventsOf(mark.queue, ...ENTITY_EVENTS).map((e) => {
      const listed = (e.streams ?? e.subscriptions) as { stream_id: number }[] | undefined;
      return [e.type, e.op, e.stream_id ?? listed?.[0]?.stream_id, e.property ?? null, e.value ?? null];
    });
    expect(told).toEqual([
      ['stream', 'create', 6, null, null],
      ['stream', 'update', IDS.design, 'description', 'Sketches'],
      ['stream', 'update', IDS.design, 'name', 'drafting'],
      ['subscription', 'add', 6, null, null],
    ]);
    expectNoResync(mark);
  });
});

describe('a channel made private on the hub', () => {
  it("leaves the replica of a member who is not in it, telling its queue as the hub tells its clients, and comes back when they are added", async () => {
    const { world: synced, watched } = await watchedWorld('mia');
    world = synced;
    const { mia } = watched;
    const adam = world.onHub('adam');

    expect((await adam.patch(`/streams/${IDS.design}`, { is_private: true })).status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');
    expect(await mia.replica.engine.db.channels.get(IDS.design)).toBeUndefined();
    expect((await world.onHub('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [IDS.mia] })).status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');

    expect(eventsOf(mia.queue, ...ENTITY_EVENTS)).toEqual(eventsOf(mia.hubQueue, ...ENTITY_EVENTS));
    expect(eventsOf(mia.queue, ...ENTITY_EVENTS).map((e) => [e.type, e.op])).toEqual([
      ['stream', 'delete'],
      ['stream', 'create'],
      ['subscription', 'add'],
    ]);
    expect((await mia.replica.engine.db.channels.get(IDS.design))?.invite_only).toBe(true);
    await expectSameView(mia);
    expectNoResync(mia);
  });
});

describe("the hub's change feed", () => {
  it('keeps one entry per changed channel and user, and keeps them through an export and import of the realm', async () => {
    world = await SyncWorld.create();
    const adam = world.onHub('adam');
    expect((await adam.patch(`/streams/${IDS.design}`, { description: 'First' })).status).toBe(200);
    expect((await adam.patch(`/streams/${IDS.design}`, { description: 'Second' })).status).toBe(200);
    expect((await adam.patch(`/users/${IDS.mia}`, { full_name: 'Mia One' })).status).toBe(200);
    expect((await adam.patch(`/users/${IDS.mia}`, { full_name: 'Mia Two' })).status).toBe(200);
    const feed = await world.hubEngine.db.sync_changes.toArray();
    expect(feed.filter((change) => change.kind !== 'message').map(({ kind, entity_id }) => [kind, entity_id])).toEqual([
      ['channel', IDS.design],
      ['user', IDS.mia],
    ]);

    await expectFeedKeptThroughArchive(world, feed);
  });

  it("brings a channel with a page's message sent to it when the channel's own entry lies beyond the page", async () => {
    const { world: synced, replicas } = await syncedWorld('mark');
    world = synced;
    const { mark } = replicas;
    const { cursor } = (await mark.replica.engine.db.sync_replica.get(1))!;
    const adam = world.onHub('adam');
    expect((await adam.post('/users/me/subscriptions', { subscriptions: [{ name: 'launch' }], principals: [IDS.mark] })).status).toBe(200);
    const launch = (await world.hubEngine.db.channels.where('name_key').equals('launch').first())!;
    // The rename moves the channel's entry after the note the notification bot posted in it.
    expect((await adam.patch(`/streams/${launch.id}`, { new_name: 'liftoff' })).status).toBe(200);

    const page = await pull(mark, { cursor, limit: 1 });
    expect(page.messages.map((bundle) => bundle.message.stream_id)).toEqual([launch.id]);
    expect(page.channels?.map((bundle) => bundle.channel.name)).toEqual(['liftoff']);
    expect(page.more).toBe(true);

    // Applied alone, the page brings the message in its channel, as it is now.
    const queue = mark.openQueue();
    expect(await applyChanges(mark.replica.engine, IDS.mark, cursor, page)).toBe('applied');
    expect(eventsOf(queue, 'stream', 'message').map((e) => (e.type === 'stream' ? e.op : (e.message as { display_recipient: string }).display_recipient))).toEqual([
      'create',
      'liftoff',
    ]);
    expect(await mark.replica.sync()).toBe('online');
    expect(eventsOf(queue, 'stream', 'subscription').map((e) => e.op)).toEqual(['create', 'add']);
    await expectSameView(mark);
  });
});

describe('someone else subscribed through a replica', () => {
  it('gets the notification bot\'s note once, from the hub: the replica writes no note of its own that it would keep forever', async () => {
    const { world: synced, watched } = await watchedWorld('mark');
    world = synced;
    const { mark } = watched;
    const note = `@_**Mark Member|${IDS.mark}** subscribed you to #**design**.`;
    const notesIn = async (engine: SyncWorld['hubEngine']) => (await engine.db.messages.toArray()).filter((message) => message.content === note);

    expect((await mark.api.post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [IDS.mia] })).status).toBe(200);
    expect(await notesIn(mark.replica.engine)).toEqual([]);
    expect(await mark.replica.sync()).toBe('online');

    // Mia has it on the hub, once; the replica holds none (Mark never sees Mia's direct messages).
    const onHub = await notesIn(world.hubEngine);
    expect(onHub).toHaveLength(1);
    expect((await world.onHub('mia').get('/messages', { anchor: 'newest', num_before: 5, num_after: 0 })).body.messages).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: onHub[0]!.id, content: expect.stringContaining('subscribed you to') })]),
    );
    expect(await notesIn(mark.replica.engine)).toEqual([]);
    await expectSameView(mark);
    expect(await SyncWorld.messagesSeen(mark.api)).toEqual(await SyncWorld.messagesSeen(world.onHub('mark')));
    expectNoResync(mark);
  });
});
