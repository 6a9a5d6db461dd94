import { afterEach, describe, expect, it } from 'vitest';
import { FLAG_BITS } from '../../src/engine/storage/rows.ts';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { IDS } from '../support/test-realm.ts';
import { eventsOf, SyncWorld, syncedWorld, type TestReplica, type WatchedReplica, watchedReplicas, watchedWorld } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

async function syncedPair(): Promise<Record<'mark' | 'mia', TestReplica>> {
  let replicas;
  ({ world, replicas } = await syncedWorld('mark', 'mia'));
  return replicas;
}

async function syncAll(...replicas: TestReplica[]): Promise<void> {
  for (const { replica } of [...replicas, ...replicas]) expect(await replica.sync()).toBe('online');
}

async function expectConverged(...replicas: TestReplica[]): Promise<void> {
  for (const { replica, api, user } of replicas) {
    expect(await SyncWorld.messagesSeen(api)).toEqual(await SyncWorld.messagesSeen(world.onHub(user)));
    expect(await replica.engine.db.messages.where('id').aboveOrEqual(PROVISIONAL_ID_BASE).count()).toBe(0);
  }
}

const hubTopics = async () => (await world.hubEngine.db.messages.toArray()).map((m) => [m.id, m.stream_id, m.topic]);

describe('topic moves on replicas', () => {
  it('rename a whole topic on the hub, whose note from the notification bot reaches both replicas and no local one stays', async () => {
    const { mark, mia } = await syncedPair();
    const miaQueue = mia.openQueue();
    mark.link.cut = true;

    const renamed = await mark.api.patch('/messages/2', { topic: 'hello', propagate_mode: 'change_all' });
    expect(renamed.status).toBe(200);
    expect(await mark.replica.engine.db.messages.where('id').aboveOrEqual(PROVISIONAL_ID_BASE).count()).toBe(0);
    expect((await world.hubEngine.db.messages.get(2))?.topic).toBe('welcome');

    mark.link.cut = false;
    await syncAll(mark, mia);

    expect((await hubTopics()).slice(0, 2)).toEqual([[1, IDS.general, 'hello'], [2, IDS.general, 'hello']]);
    const note = (await world.hubEngine.db.messages.toArray()).at(-1)!;
    expect(note).toMatchObject({ id: 5, stream_id: IDS.general, topic: 'hello' });
    expect(note.content).toContain('moved here from');
    // One move, one event naming both messages, as the hub's clients hear it.
    const updates = eventsOf(miaQueue, 'update_message');
    expect(updates.map((e) => [e.message_ids, e.orig_subject, e.subject, e.stream_id, e.propagate_mode])).toEqual([[[1, 2], 'welcome', 'hello', IDS.general, 'change_all']]);
    expect(eventsOf(miaQueue, 'message').map((e) => (e.message as { id: number }).id)).toEqual([5]);
    await expectConverged(mark, mia);
  });

  it('resolve and unresolve a topic made offline on both sides, converging on the hub\'s last word', async () => {
    const { mark, mia } = await syncedPair();
    mark.link.cut = true;
    mia.link.cut = true;

    expect((await mia.api.patch('/messages/1', { topic: '✔ welcome', propagate_mode: 'change_all' })).status).toBe(200);
    expect((await mark.api.patch('/messages/2', { topic: '✔ welcome', propagate_mode: 'change_all' })).status).toBe(200);
    mia.link.cut = false;
    expect(await mia.replica.sync()).toBe('online');
    // Mark resolved a topic the hub has resolved meanwhile: the hub refuses, the replica takes the hub's state.
    mark.link.cut = false;
    await syncAll(mark, mia);
    expect((await mark.replica.refusals()).map((r) => [r.code, r.msg])).toEqual([['BAD_REQUEST', 'Nothing to change']]);
    expect((await hubTopics()).slice(0, 2)).toEqual([[1, IDS.general, '✔ welcome'], [2, IDS.general, '✔ welcome']]);
    await expectConverged(mark, mia);

    expect((await mia.api.patch('/messages/2', { topic: 'welcome', propagate_mode: 'change_all' })).status).toBe(200);
    await syncAll(mia, mark);
    expect((await hubTopics()).slice(0, 2)).toEqual([[1, IDS.general, 'welcome'], [2, IDS.general, 'welcome']]);
    await expectConverged(mark, mia);
  });

  it('move a message to a channel the other replica\'s user is not subscribed to: her clients are told of the move as the hub tells its clients, her replica keeps it as that channel\'s history', async () => {
    const { world: watchedHub, watched } = await watchedWorld('mark', 'mia');
    world = watchedHub;
    const { mark, mia } = watched;

    const moved = await mark.api.patch('/messages/2', { stream_id: IDS.design, propagate_mode: 'change_one', send_notification_to_new_thread: false });
    expect(moved.status).toBe(200);
    await syncAll(mark, mia);

    expect((await hubTopics())[1]).toEqual([2, IDS.design, 'welcome']);
    // Design is public: Mia may still read the message there, as channel history without flags.
    expect((await mia.replica.engine.db.messages.get(2))?.stream_id).toBe(IDS.design);
    expect(await mia.replica.engine.db.user_messages.get([IDS.mia, 2])).toBeUndefined();
    // Not gone for her: the hub tells a subscriber of general (whose history is shared) the move, with the flags of history.
    const told = ['update_message', 'delete_message'];
    expect(eventsOf(mia.queue, ...told)).toEqual(eventsOf(mia.hubQueue, ...told));
    expect(eventsOf(mia.queue, ...told)).toMatchObject([{ type: 'update_message', message_ids: [2], new_stream_id: IDS.design, propagate_mode: 'change_one', flags: ['read'] }]);
    expect((await mark.replica.engine.db.messages.get(2))?.stream_id).toBe(IDS.design);
    await expectConverged(mark, mia);
  });
});

describe('topic visibility on replicas', () => {
  it('reaches the hub from a replica, and a change made on the hub reaches the replica\'s queue without a resync', async () => {
    const { mark } = await syncedPair();
    mark.link.cut = true;
    expect((await mark.api.post('/user_topics', { stream_id: IDS.general, topic: 'welcome', visibility_policy: 1 })).status).toBe(200);
    expect((await mark.api.patch('/users/me/subscriptions/muted_topics', { stream_id: IDS.design, topic: 'noise', op: 'add' })).status).toBe(200);
    mark.link.cut = false;
    expect(await mark.replica.sync()).toBe('online');
    const policies = async (db: typeof world.hubEngine.db) =>
      (await db.user_topics.where('user_id').equals(IDS.mark).toArray()).map((r) => [r.stream_id, r.topic_name, r.visibility_policy]);
    expect(await policies(world.hubEngine.db)).toEqual([[IDS.general, 'welcome', 1], [IDS.design, 'noise', 1]]);

    const queue = mark.openQueue();
    expect((await world.onHub('mark').post('/user_topics', { stream_id: IDS.general, topic: 'welcome', visibility_policy: 3 })).status).toBe(200);
    expect((await world.onHub('mark').post('/user_topics', { stream_id: IDS.design, topic: 'noise', visibility_policy: 0 })).status).toBe(200);
    expect(await mark.replica.sync()).toBe('online');

    expect(await policies(mark.replica.engine.db)).toEqual([[IDS.general, 'welcome', 3]]);
    expect(eventsOf(queue, 'user_topic')).toEqual([
      { type: 'user_topic', stream_id: IDS.general, topic_name: 'welcome', last_updated: world.clock.now() / 1000, visibility_policy: 3 },
      { type: 'user_topic', stream_id: IDS.design, topic_name: 'noise', last_updated: world.clock.now() / 1000, visibility_policy: 0 },
    ]);
    expect(eventsOf(queue, 'muted_topics')).toEqual([{ type: 'muted_topics', muted_topics: [] }]);
  });

  it("set offline on a replica, ends with the time the hub ran it, as the replica's clients then register with it, and tells nothing more", async () => {
    const { mark } = await syncedPair();
    mark.link.cut = true;
    expect((await mark.api.post('/user_topics', { stream_id: IDS.general, topic: 'welcome', visibility_policy: 3 })).status).toBe(200);
    const queue = mark.openQueue();
    world.clock.advance(60_000);
    mark.link.cut = false;
    expect(await mark.replica.sync()).toBe('online');

    const registered = async (api: TestReplica['api']) => (await api.post('/register', { fetch_event_types: ['user_topic'] })).body.user_topics;
    expect(await registered(mark.api)).toEqual(await registered(world.onHub('mark')));
    expect((await registered(mark.api))[0].last_updated).toBe(world.clock.now() / 1000);
    expect(eventsOf(queue, 'user_topic', 'muted_topics')).toEqual([]);
  });
});

describe('marking as read in bulk on replicas', () => {
  it('by topic, by channel, by narrow and all at once reach the hub, and the hub\'s flags come back', async () => {
    const { mark, mia } = await syncedPair();
    const unreadOnHub = async (user: 'mark' | 'mia') =>
      (await world.onHub(user).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0 })).body.messages
        .filter((m: { flags: string[] }) => !m.flags.includes('read'))
        .map((m: { id: number }) => m.id);
    const olivia = world.onHub('olivia');
    for (const [topic, content] of [['news', 'one'], ['news', 'two'], ['other', 'three']]) {
      await olivia.post('/messages', { type: 'stream', to: 'general', topic, content });
    }
    await syncAll(mia, mark);
    expect(await unreadOnHub('mia')).toEqual([5, 6, 7]);
    expect(await unreadOnHub('mark')).toEqual([5, 6, 7]);

    mia.link.cut = true;
    expect((await mia.api.post('/mark_topic_as_read', { stream_id: IDS.general, topic_name: 'news' })).status).toBe(200);
    const narrowed = await mia.api.post('/messages/flags/narrow', {
      anchor: 'oldest', num_before: 0, num_after: 1, narrow: [{ operator: 'topic', operand: 'other' }], op: 'add', flag: 'read',
    });
    expect(narrowed.body).toMatchObject({ processed_count: 1, updated_count: 1, first_processed_id: 7 });
    expect((await mark.api.post('/mark_stream_as_read', { stream_id: IDS.general })).status).toBe(200);
    mia.link.cut = false;
    await syncAll(mia, mark);
    expect(await unreadOnHub('mia')).toEqual([]);
    expect(await unreadOnHub('mark')).toEqual([]);

    await olivia.post('/messages', { type: 'stream', to: 'general', topic: 'news', content: 'four' });
    expect(await mia.replica.sync()).toBe('online');
    const queue = mia.openQueue();
    expect((await world.onHub('mia').post('/mark_all_as_read')).status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');
    expect(eventsOf(queue, 'update_message_flags')).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [8], all: false },
    ]);
    await syncAll(mark);
    await expectConverged(mark, mia);
  });

  it('all at once on a replica reaches the hub', async () => {
    const { mia } = await syncedPair();
    await world.onHub('olivia').post('/messages', { type: 'stream', to: 'general', topic: 'news', content: 'one' });
    expect(await mia.replica.sync()).toBe('online');
    expect((await mia.api.post('/mark_all_as_read')).body).toEqual({ result: 'success', msg: '', complete: true });
    expect(await mia.replica.sync()).toBe('online');
    expect((await world.hubEngine.db.user_messages.where('user_id').equals(IDS.mia).toArray()).map((um) => um.flags & FLAG_BITS.read)).toEqual([FLAG_BITS.read, FLAG_BITS.read, FLAG_BITS.read]);
    await expectConverged(mia);
  });
});

describe('a move made on the hub, told on a replica', () => {
  /** Olivia posts three messages in general > agenda on the hub; Mia, subscribed to design too, has her replica watched from then on. */
  async function agenda() {
    ({ world } = await watchedWorld());
    expect((await world.onHub('mia').post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }] })).status).toBe(200);
    const ids: number[] = [];
    for (const content of ['one', 'two', 'three']) {
      ids.push((await world.onHub('olivia').post('/messages', { type: 'stream', to: 'general', topic: 'agenda', content })).body.id as number);
    }
    const { mia } = await watchedReplicas(world, 'mia');
    return { mia, ids };
  }

  /** What the move tells Mia's client on the replica is what it tells her client on the hub. */
  function expectToldAsOnHub(mia: WatchedReplica): void {
    const told = eventsOf(mia.hubQueue, 'update_message');
    expect(told).toHaveLength(1);
    expect(eventsOf(mia.queue, 'update_message')).toEqual(told);
  }

  it('as one event naming every message of a renamed topic, with its links', async () => {
    const { mia, ids } = await agenda();
    expect((await world.onHub('olivia').patch(`/messages/${ids[0]}`, { topic: 'agenda https://example.test/a', propagate_mode: 'change_all', send_notification_to_old_thread: false, send_notification_to_new_thread: false })).status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');
    expectToldAsOnHub(mia);
    expect(eventsOf(mia.queue, 'update_message')[0]).toMatchObject({ message_ids: ids, propagate_mode: 'change_all', topic_links: [{ text: 'https://example.test/a', url: 'https://example.test/a' }] });
  });

  it('as one event for the later messages moved to another channel', async () => {
    const { mia, ids } = await agenda();
    const move = { stream_id: IDS.design, propagate_mode: 'change_later', send_notification_to_old_thread: false, send_notification_to_new_thread: false };
    expect((await world.onHub('olivia').patch(`/messages/${ids[1]}`, move)).status).toBe(200);
    expect(await mia.replica.sync()).toBe('online');
    expect(eventsOf(mia.queue, 'update_message')[0]).toMatchObject({ message_ids: ids.slice(1), propagate_mode: 'change_later', new_stream_id: IDS.design });
    expectToldAsOnHub(mia);
  });
});
