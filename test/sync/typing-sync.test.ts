import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import type { EventQueue } from '../../src/engine/events/event-queue.ts';
import type { Engine } from '../../src/engine/engine.ts';
import { RETRY_MS } from '../../src/sync/replica/sync-replica.ts';
import { IDS, openQueue, type TestUser } from '../support/test-realm.ts';
import { eventsOf, liveRelayPair, relayWaiting, syncedWorld, type SyncWorld, type TestReplica } from './sync-fixture.ts';

let world: SyncWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const MARK = { user_id: IDS.mark, email: 'mark@zulip.test' };
const MIA = { user_id: IDS.mia, email: 'mia@zulip.test' };
const SOON = { timeout: 5000, interval: 10 };

/** A client that declared channel typing, as upstream's web app does. */
const typingQueue = (engine: Engine, userId: number): EventQueue =>
  openQueue(engine, userId, { capabilities: { ...NO_CAPABILITIES, stream_typing_notifications: true } });

/** Mark and Mia, each on a live replica waiting on the hub. */
async function liveWorld(): Promise<{ world: SyncWorld; mark: TestReplica; mia: TestReplica }> {
  const pair = await liveRelayPair();
  world = pair.world;
  return pair;
}

describe('typing notifications between replicas', () => {
  it('reach the other replica\'s clients as a client of the hub gets them, start and stop, without an echo to the typist', async () => {
    const { world, mark, mia } = await liveWorld();
    const miaQueue = typingQueue(mia.replica.engine, IDS.mia);
    const miaWithoutChannelTyping = openQueue(mia.replica.engine, IDS.mia);
    const miaOnHub = typingQueue(world.hubEngine, IDS.mia);
    const markQueue = typingQueue(mark.replica.engine, IDS.mark);
    const channelTyping = (op: string) => ({ type: 'typing', op, message_type: 'stream', stream_id: IDS.general, topic: 'live', sender: MARK });

    expect(await mark.api.post('/typing', { type: 'stream', op: 'start', stream_id: IDS.general, topic: 'live' })).toEqual({
      status: 200,
      body: { result: 'success', msg: '' },
    });
    await vi.waitFor(() => expect(eventsOf(miaQueue, 'typing')).toEqual([channelTyping('start')]), SOON);
    expect(eventsOf(miaOnHub, 'typing')).toEqual([channelTyping('start')]);

    await mark.api.post('/typing', { type: 'stream', op: 'stop', stream_id: IDS.general, topic: 'live' });
    await vi.waitFor(() => expect(eventsOf(miaQueue, 'typing')).toEqual([channelTyping('start'), channelTyping('stop')]), SOON);
    expect(eventsOf(miaOnHub, 'typing')).toEqual([channelTyping('start'), channelTyping('stop')]);
    expect(eventsOf(miaWithoutChannelTyping, 'typing')).toEqual([]);

    // Mia types back: once Mark hears her, any echo of his own notices would have come before.
    await mia.api.post('/typing', { type: 'stream', op: 'start', stream_id: IDS.general, topic: 'live' });
    const miaTyping = { ...channelTyping('start'), sender: MIA };
    await vi.waitFor(() => expect(eventsOf(markQueue, 'typing')).toEqual([channelTyping('start'), channelTyping('stop'), miaTyping]), SOON);
    expect(eventsOf(miaQueue, 'typing')).toEqual([channelTyping('start'), channelTyping('stop'), miaTyping]);
  });

  it('carry direct typing and typing in an edit with the hub\'s fields', async () => {
    const { world, mark, mia } = await liveWorld();
    const miaQueue = typingQueue(mia.replica.engine, IDS.mia);
    const miaOnHub = typingQueue(world.hubEngine, IDS.mia);
    const markQueue = typingQueue(mark.replica.engine, IDS.mark);

    await mark.api.post('/typing', { op: 'start', to: [IDS.mia] });
    const direct = { type: 'typing', op: 'start', message_type: 'direct', sender: MARK, recipients: [MIA, MARK] };
    await vi.waitFor(() => expect(eventsOf(miaQueue, 'typing')).toEqual([direct]), SOON);
    expect(eventsOf(miaOnHub, 'typing')).toEqual([direct]);

    const sent = await world.onHub('mark').post('/messages', { type: 'stream', to: 'general', topic: 'live', content: 'first draft' });
    const messageId = sent.body.id as number;
    await vi.waitFor(() => expect(eventsOf(markQueue, 'message')).toHaveLength(1), SOON);
    expect((await mark.api.post(`/messages/${messageId}/typing`, { op: 'start' })).status).toBe(200);
    const editing = {
      type: 'typing_edit_message',
      op: 'start',
      sender_id: IDS.mark,
      message_id: messageId,
      recipient: { type: 'channel', channel_id: IDS.general, topic: 'live' },
    };
    await vi.waitFor(() => expect(eventsOf(miaQueue, 'typing_edit_message')).toEqual([editing]), SOON);
    expect(eventsOf(miaOnHub, 'typing_edit_message')).toEqual([editing]);
    expect(eventsOf(markQueue, 'typing', 'typing_edit_message')).toEqual([direct, editing]);
  });

  it('are answered locally while the hub is out of reach, and never sent later', async () => {
    const { mark, mia } = await liveWorld();
    const miaQueue = typingQueue(mia.replica.engine, IDS.mia);
    const markQueue = typingQueue(mark.replica.engine, IDS.mark);
    mark.link.cut = true;

    const typing = (op: string) => ({ type: 'typing', op, message_type: 'direct', sender: MARK, recipients: [MIA, MARK] });
    // Before any round has failed: the relay is tried and fails quietly.
    expect(await mark.api.post('/typing', { op: 'start', to: [IDS.mia] })).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    await mark.api.post('/messages', { type: 'direct', to: [IDS.mia], content: 'written offline' });
    await vi.waitFor(async () => expect(await mark.replica.status()).toBe('offline'), SOON);
    // Known to be offline: not even tried.
    expect(await mark.api.post('/typing', { op: 'stop', to: [IDS.mia] })).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    expect(eventsOf(markQueue, 'typing')).toEqual([typing('start'), typing('stop')]);

    mark.link.cut = false;
    world!.clock.advance(RETRY_MS);
    await vi.waitFor(() => expect(eventsOf(miaQueue, 'message')).toHaveLength(1), SOON);
    await vi.waitFor(() => expect(mark.replica.lastError).toBeNull(), SOON);
    expect(eventsOf(miaQueue, 'typing')).toEqual([]);
  });
});

describe('the hub\'s typing relay', () => {
  /** A raw call to the hub's peer protocol. */
  const hubCall = (user: TestUser, path: string, body: unknown) => world!.peerCall(user, 'POST', path, body);

  /** A hub with Mia's replica synced: her hub identity, and a wait body from her checkpoint. */
  async function miaAtTheHub() {
    const synced = await syncedWorld('mia');
    world = synced.world;
    const state = (await synced.replicas.mia.replica.engine.db.sync_replica.get(1))!;
    const identity = { hub_id: state.hub_id, epoch: state.epoch };
    return { identity, wait: { ...identity, cursor: state.cursor, timeout_seconds: 30 } };
  }

  it('wakes a wait naming its replica with the notice for its user, and never with the user\'s own', async () => {
    const { identity, wait } = await miaAtTheHub();

    const miaWaiting = hubCall('mia', '/wait', { ...wait, client_id: 'client-mia-0001' });
    await vi.waitFor(() => expect(relayWaiting(world!.hubEngine, IDS.mia)).toBe(true), SOON);
    const typed = await hubCall('mark', '/ephemeral', { ...identity, path: 'typing', params: { op: 'start', to: `[${IDS.mia}]` } });
    expect(typed).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    const answered = await miaWaiting;
    expect(answered).toEqual({
      status: 200,
      body: {
        result: 'success',
        msg: '',
        changed: false,
        ephemeral: [{ type: 'typing', op: 'start', message_type: 'direct', sender: MARK, recipients: [MIA, MARK] }],
        ephemeral_until: { queue_id: expect.any(String), last_event_id: expect.any(Number) },
      },
    });

    // Mia's own notice: her wait (acknowledging what she received) hears nothing of it and runs out on the hub's clock.
    let quiet: { body: Record<string, unknown> } | undefined;
    void hubCall('mia', '/wait', { ...wait, client_id: 'client-mia-0001', ephemeral_ack: answered.body.ephemeral_until }).then((answer) => (quiet = answer));
    await vi.waitFor(() => expect(relayWaiting(world!.hubEngine, IDS.mia)).toBe(true), SOON);
    await hubCall('mia', '/ephemeral', { ...identity, path: 'typing', params: { op: 'start', to: `[${IDS.mark}]` } });
    await vi.waitFor(() => {
      world!.clock.advance(30_000);
      expect(quiet).toEqual({ status: 200, body: { result: 'success', msg: '', changed: false, ephemeral: [], ephemeral_until: expect.any(Object) } });
    }, SOON);
  });

  it('sends a notice again to a replica that did not acknowledge the wait that carried it (it gave that wait up), and never after it did', async () => {
    const mia = await miaAtTheHub();
    const { identity } = mia;
    const wait = { ...mia.wait, client_id: 'client-mia-0001' };
    const notice = [{ type: 'typing', op: 'start', message_type: 'direct', sender: MARK, recipients: [MIA, MARK] }];

    const lost = hubCall('mia', '/wait', wait);
    await vi.waitFor(() => expect(relayWaiting(world!.hubEngine, IDS.mia)).toBe(true), SOON);
    await hubCall('mark', '/ephemeral', { ...identity, path: 'typing', params: { op: 'start', to: `[${IDS.mia}]` } });
    expect((await lost).body.ephemeral).toEqual(notice);
    // The replica never read that answer: its next wait names no newer mark, and gets the notice at once.
    const again = await hubCall('mia', '/wait', wait);
    expect(again.body.ephemeral).toEqual(notice);
    // Acknowledged, it is gone: the next wait runs out empty.
    let quiet: { body: Record<string, unknown> } | undefined;
    void hubCall('mia', '/wait', { ...wait, ephemeral_ack: again.body.ephemeral_until }).then((answer) => (quiet = answer));
    await vi.waitFor(() => {
      world!.clock.advance(30_000);
      expect(quiet?.body.ephemeral).toEqual([]);
    }, SOON);
  });

  it('acknowledges a notice as it sends it to a replica older than version 4, which never acknowledges', async () => {
    const mia = await miaAtTheHub();
    const { identity } = mia;
    const wait = { ...mia.wait, client_id: 'client-mia-0001' };
    const oldReplicaWait = () => world!.peerCall('mia', 'POST', '/wait?version=3', wait);

    const first = oldReplicaWait();
    await vi.waitFor(() => expect(relayWaiting(world!.hubEngine, IDS.mia)).toBe(true), SOON);
    await hubCall('mark', '/ephemeral', { ...identity, path: 'typing', params: { op: 'start', to: `[${IDS.mia}]` } });
    expect((await first).body).toEqual({ result: 'success', msg: '', changed: false, ephemeral: [{ type: 'typing', op: 'start', message_type: 'direct', sender: MARK, recipients: [MIA, MARK] }] });
    let quiet: { body: Record<string, unknown> } | undefined;
    void oldReplicaWait().then((answer) => (quiet = answer));
    await vi.waitFor(() => {
      world!.clock.advance(30_000);
      expect(quiet?.body).toEqual({ result: 'success', msg: '', changed: false, ephemeral: [] });
    }, SOON);
  });

  it('runs a relayed notice as the user\'s own request and refuses what is not one', async () => {
    const { identity } = await miaAtTheHub();
    const miaOnHub = typingQueue(world!.hubEngine, IDS.mia);

    expect(await hubCall('mia', '/ephemeral', { ...identity, path: 'typing', params: { type: 'stream', op: 'start', stream_id: `${IDS.secret}`, topic: 't' } })).toEqual({
      status: 400,
      body: { result: 'error', msg: 'Invalid channel ID', code: 'BAD_REQUEST' },
    });
    expect(await hubCall('mia', '/ephemeral', { ...identity, path: 'messages', params: { content: 'sneaked in' } })).toMatchObject({
      status: 400,
      body: { result: 'error', code: 'BAD_REQUEST' },
    });
    expect(await hubCall('mia', '/ephemeral', { ...identity, epoch: 'an-old-epoch', path: 'typing', params: { op: 'start', to: `[${IDS.mark}]` } })).toMatchObject({
      status: 409,
      body: { code: 'SYNC_RESYNC_NEEDED' },
    });
    expect(miaOnHub.events).toEqual([]);
    expect(await world!.hubEngine.db.messages.count()).toBe(4);
  });
});
