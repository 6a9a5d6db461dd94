import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../src/engine/engine.ts';
import type { EventQueue } from '../../src/engine/events/event-queue.ts';
import { NO_CAPABILITIES } from '../../src/engine/events/event-types.ts';
import { IDS, openQueue, type TestUser } from '../support/test-realm.ts';
import { type Caller, eventsOf, liveRelayPair, relayWaiting, syncedWorld, type SyncWorld, type TestReplica } from './sync-fixture.ts';

let world: SyncWorld | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const SOON = { timeout: 5000, interval: 10 };

/** Mark and Mia, each on a live replica waiting on the hub. */
async function liveWorld(): Promise<{ world: SyncWorld; mark: TestReplica; mia: TestReplica }> {
  const pair = await liveRelayPair();
  world = pair.world;
  return pair;
}

/** A client registered for presence events through the API, and its queue on the engine behind `api`. */
async function registeredQueue(api: Caller, engine: Engine, userId: number): Promise<EventQueue> {
  const { body } = await api.post('/register', { event_types: ['presence'] });
  return engine.queues.get(body.queue_id as string, userId);
}

describe('presence between replicas', () => {
  it('reaches the other replica\'s clients as a client of the hub gets it, and its stored presence, without an echo to the reporter', async () => {
    const { world, mark, mia } = await liveWorld();
    const now = Math.floor(world.clock.now() / 1000);
    const miaQueue = await registeredQueue(mia.api, mia.replica.engine, IDS.mia);
    const miaModern = openQueue(mia.replica.engine, IDS.mia, { capabilities: { ...NO_CAPABILITIES, simplified_presence_events: true } });
    const miaOnHub = await registeredQueue(world.onHub('mia'), world.hubEngine, IDS.mia);
    const markQueue = await registeredQueue(mark.api, mark.replica.engine, IDS.mark);
    expect((await mia.api.get('/realm/presence')).body).toEqual({ result: 'success', msg: '', presences: {}, server_timestamp: now });

    expect(await mark.api.post('/users/me/presence', { status: 'active', ping_only: true })).toEqual({
      status: 200,
      body: { result: 'success', msg: '' },
    });
    const website = { client: 'website', status: 'active', timestamp: now, pushable: false };
    const markActive = { type: 'presence', user_id: IDS.mark, server_timestamp: now, presence: { website }, email: 'mark@zulip.test' };
    await vi.waitFor(() => expect(eventsOf(miaQueue, 'presence')).toEqual([markActive]), SOON);
    expect(eventsOf(miaOnHub, 'presence')).toEqual([markActive]);
    expect(eventsOf(miaModern, 'presence')).toEqual([
      { type: 'presence', presences: { [IDS.mark]: { active_timestamp: now, idle_timestamp: now } } },
    ]);

    const realmPresence = {
      result: 'success',
      msg: '',
      presences: { 'mark@zulip.test': { website, aggregated: { client: 'website', status: 'active', timestamp: now } } },
      server_timestamp: now,
    };
    expect((await mia.api.get('/realm/presence')).body).toEqual(realmPresence);
    expect((await world.onHub('mia').get('/realm/presence')).body).toEqual(realmPresence);

    // Mia reports back: once Mark hears her, any echo of his own report would have come before.
    await mia.api.post('/users/me/presence', { status: 'active', ping_only: true });
    const miaActive = { ...markActive, user_id: IDS.mia, email: 'mia@zulip.test' };
    await vi.waitFor(() => expect(eventsOf(markQueue, 'presence')).toEqual([markActive, miaActive]), SOON);
    expect(eventsOf(miaQueue, 'presence')).toEqual([markActive, miaActive]);
  });
});

describe('the hub\'s presence relay', () => {
  /** A raw call to the hub's peer protocol. */
  const hubCall = (user: TestUser, path: string, body: unknown) => world!.peerCall(user, 'POST', path, body);

  it('answers a wait with another user\'s presence event in both formats, lets the user\'s own pass, and refuses a bad report', async () => {
    const synced = await syncedWorld('mia');
    world = synced.world;
    const now = Math.floor(world.clock.now() / 1000);
    const state = (await synced.replicas.mia.replica.engine.db.sync_replica.get(1))!;
    const identity = { hub_id: state.hub_id, epoch: state.epoch };
    const wait = { ...identity, cursor: state.cursor, timeout_seconds: 30, client_id: 'client-mia-0001' };

    expect(await hubCall('mark', '/ephemeral', { ...identity, path: 'users/me/presence', params: { status: 'asleep' } })).toEqual({
      status: 400,
      body: { result: 'error', msg: 'Invalid status: asleep', code: 'BAD_REQUEST' },
    });
    expect(await hubCall('mark', '/ephemeral', { ...identity, path: `users/${IDS.mark}/presence`, params: { status: 'active' } })).toMatchObject({
      status: 400,
      body: { result: 'error', code: 'BAD_REQUEST' },
    });
    expect(await world.hubEngine.db.presence.count()).toBe(0);

    // Mia's own report first: her wait lets it pass and answers with Mark's.
    const miaWaiting = hubCall('mia', '/wait', wait);
    await vi.waitFor(() => expect(relayWaiting(world!.hubEngine, IDS.mia)).toBe(true), SOON);
    expect(await hubCall('mia', '/ephemeral', { ...identity, path: 'users/me/presence', params: { status: 'active', ping_only: 'true' } })).toEqual({
      status: 200,
      body: { result: 'success', msg: '' },
    });
    expect(relayWaiting(world.hubEngine, IDS.mia)).toBe(true);
    await hubCall('mark', '/ephemeral', { ...identity, path: 'users/me/presence', params: { status: 'active', ping_only: 'true' } });
    expect(await miaWaiting).toEqual({
      status: 200,
      body: {
        result: 'success',
        msg: '',
        changed: false,
        ephemeral: [
          {
            type: 'presence',
            user_id: IDS.mark,
            server_timestamp: now,
            presence: { website: { client: 'website', status: 'active', timestamp: now, pushable: false } },
            presences: { [IDS.mark]: { active_timestamp: now, idle_timestamp: now } },
            email: 'mark@zulip.test',
          },
        ],
        ephemeral_until: { queue_id: expect.any(String), last_event_id: expect.any(Number) },
      },
    });
  });
  it('keeps another user\'s later reports current on a replica, though the hub tells no event of them', async () => {
    const { world, mark, mia } = await liveWorld();
    const markSeenByMia = async () => {
      const { body } = await mia.api.get('/realm/presence');
      return (body.presences as Record<string, { aggregated: { timestamp: number } }>)['mark@zulip.test']?.aggregated.timestamp;
    };
    const first = Math.floor(world.clock.now() / 1000);
    await mark.api.post('/users/me/presence', { status: 'active', ping_only: true });
    await vi.waitFor(async () => expect(await markSeenByMia()).toBe(first), SOON);

    // A minute on, Mark's regular report only moves the hub's row: no one is told.
    world.clock.advance(60_000);
    const hubQueue = await registeredQueue(world.onHub('mia'), world.hubEngine, IDS.mia);
    await mark.api.post('/users/me/presence', { status: 'active', ping_only: true });
    await vi.waitFor(async () => expect((await world!.onHub('mia').get('/realm/presence')).body.presences['mark@zulip.test'].aggregated.timestamp).toBe(first + 60), SOON);
    expect(eventsOf(hubQueue, 'presence')).toEqual([]);

    // Mia's own next report brings the hub's presences to her replica.
    await mia.api.post('/users/me/presence', { status: 'active' });
    await vi.waitFor(async () => expect(await markSeenByMia()).toBe(first + 60), SOON);
  });
});
