import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { IDS, openQueue } from '../support/test-realm.ts';
import { SyncReplica } from '../../src/sync/replica/sync-replica.ts';
import { Caller, eventsOf, newEngine, SyncWorld, userRow } from './sync-fixture.ts';

let world: SyncWorld;
afterEach(() => world?.close());

const HUB_URL = 'http://hub.test:9991';

async function syncedMark() {
  world = await SyncWorld.create();
  const mark = await world.replicaOf('mark');
  expect(await mark.replica.sync()).toBe('online');
  return mark;
}

describe('the sync status of a replica', () => {
  it('answers GET /offline_realm/sync with the status, the pending sends and no error', async () => {
    const mark = await syncedMark();
    expect(await mark.api.get('/offline_realm/sync')).toEqual({
      status: 200,
      body: { result: 'success', msg: '', hub_url: HUB_URL, status: 'online', pending: 0, pending_message_ids: [], last_error: null, refusals: [] },
    });

    await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'Pizza?' });
    await mark.api.post('/messages/1/reactions', { emoji_name: 'octopus' });
    const pending = await mark.api.get('/offline_realm/sync');
    expect(pending.body).toMatchObject({ status: 'pending:2', pending: 2, pending_message_ids: [PROVISIONAL_ID_BASE], last_error: null });

    mark.link.cut = true;
    await mark.replica.sync();
    const offline = await mark.api.get('/offline_realm/sync');
    expect(offline.body).toMatchObject({ status: 'offline', pending: 2, pending_message_ids: [PROVISIONAL_ID_BASE], last_error: 'fetch failed' });

    mark.link.cut = false;
    await mark.replica.sync();
    expect((await mark.api.get('/offline_realm/sync')).body).toMatchObject({ status: 'online', pending: 0, pending_message_ids: [], last_error: null });
  });

  it('lists the refusals newest first with the hub\'s message and code, and a refused send\'s text', async () => {
    const mark = await syncedMark();
    mark.link.cut = true;
    await mark.api.post('/messages', { type: 'stream', to: 'secret', topic: 'plans', content: 'still here?' });
    await mark.api.post('/messages/2/reactions', { emoji_name: 'eyes' });
    await world.onHub('olivia').delete('/users/me/subscriptions', { subscriptions: ['secret'], principals: [IDS.mark] });
    await world.onHub('olivia').delete('/messages/2');
    mark.link.cut = false;
    await mark.replica.sync();

    const { body } = await mark.api.get('/offline_realm/sync');
    expect(body.refusals).toEqual([
      { mutation_id: 2, method: 'POST', path: '/messages/2/reactions', msg: 'Invalid message(s)', code: 'BAD_REQUEST' },
      {
        mutation_id: 1,
        method: 'POST',
        path: '/messages',
        msg: "Not authorized to send to channel 'secret'",
        code: 'BAD_REQUEST',
        // A refused send keeps what it said and where, for its author to have back.
        message: { type: 'stream', to: 'secret', topic: 'plans', content: 'still here?' },
      },
    ]);
    expect(body.status).toBe('online');
  });

  it('refuses a caller without credentials as the API does, and a method other than GET', async () => {
    const mark = await syncedMark();
    const anonymous = await mark.replica.handle(new Request('http://local.test/api/v1/offline_realm/sync'));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ result: 'error', msg: 'Missing authorization header for basic auth', code: 'UNAUTHORIZED' });
    expect(await mark.api.post('/offline_realm/sync')).toEqual({ status: 405, body: { result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST' } });
  });

  it('is not found on an instance that is no replica', async () => {
    await syncedMark();
    const onHub = await world.onHub('mark').get('/offline_realm/sync');
    expect(onHub.status).toBe(404);
    expect(onHub.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });

  it('tells the user\'s queues each change of the status, and only queues that accept the event', async () => {
    const mark = await syncedMark();
    // The first round's own announcement (online) comes after it: the queues below start after it.
    const first = mark.openQueue();
    await vi.waitFor(() => expect(eventsOf(first, 'offline_realm_sync')).toHaveLength(1), { timeout: 5000, interval: 10 });
    const all = mark.openQueue();
    const onlySync = openQueue(mark.replica.engine, mark.userId, { eventTypes: new Set(['offline_realm_sync']) });
    const onlyMessages = openQueue(mark.replica.engine, mark.userId, { eventTypes: new Set(['message']) });

    await mark.api.post('/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'Pizza?' });
    mark.link.cut = true;
    await mark.replica.sync();
    await mark.replica.sync();
    mark.link.cut = false;
    await mark.replica.sync();

    const expected = [
      { type: 'offline_realm_sync', status: 'pending:1', pending: 1, pending_message_ids: [PROVISIONAL_ID_BASE], last_error: null, refusals_count: 0 },
      { type: 'offline_realm_sync', status: 'offline', pending: 1, pending_message_ids: [PROVISIONAL_ID_BASE], last_error: 'fetch failed', refusals_count: 0 },
      { type: 'offline_realm_sync', status: 'online', pending: 0, pending_message_ids: [], last_error: null, refusals_count: 0 },
    ];
    await vi.waitFor(() => expect(eventsOf(all, 'offline_realm_sync')).toEqual(expected), { timeout: 5000, interval: 10 });
    expect(eventsOf(onlySync, 'offline_realm_sync')).toEqual(expected);
    expect(onlyMessages.events.filter((event) => event.type === 'offline_realm_sync')).toEqual([]);
  });

  it('reports to its host each change, as the page\'s data-sync shows it', async () => {
    world = await SyncWorld.create();
    const reports: string[] = [];
    const row = userRow('mia');
    const engine = await newEngine(world.clock, false);
    const replica = new SyncReplica({
      engine,
      fetch: (request) => world.hub.handle(request),
      hubUrl: HUB_URL,
      email: row.email,
      apiKey: row.api_key,
      onReport: (report) => reports.push(report.status),
    });
    await replica.sync();
    const api = new Caller((request) => replica.handle(request), row.email, row.api_key);
    await api.post('/messages', { type: 'stream', to: 'general', topic: 'lunch', content: 'Soup?' });
    await replica.sync();
    await vi.waitFor(() => expect(reports).toEqual(['online', 'pending:1', 'online']), { timeout: 5000, interval: 10 });
    engine.close();
  });
});
