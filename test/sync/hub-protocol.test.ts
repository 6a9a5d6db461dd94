import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROVISIONAL_ID_BASE } from '../../src/sync/protocol.ts';
import { IDS } from '../support/test-realm.ts';
import { Caller, SyncWorld, userRow } from './sync-fixture.ts';
import type { TestUser } from '../support/test-realm.ts';

let world: SyncWorld;
afterEach(() => world?.close());

/** A raw call to the hub's peer protocol, as a tampered replica could make it. */
const hubCall = (user: TestUser | null, method: string, path: string, body?: unknown) => world.peerCall(user, method, path, body);

async function identity(user: TestUser) {
  const { body } = await hubCall(user, 'GET', '/snapshot');
  return { hub_id: body.hub_id as string, epoch: body.epoch as string };
}

const CLIENT = 'client-0000-0001';

describe('the hub', () => {
  it('runs a pushed change as the user\'s own request: a replica cannot do what its user could not', async () => {
    world = await SyncWorld.create();
    const mutations = [
      { mutation_id: 1, method: 'PATCH', path: '/messages/1', params: { content: 'not mine to edit' } },
      { mutation_id: 2, method: 'POST', path: '/messages', params: { type: 'stream', to: 'secret', topic: 't', content: 'let me in' } },
      { mutation_id: 3, method: 'POST', path: '/users/me/subscriptions', params: { subscriptions: '[{"name":"secret"}]' } },
      { mutation_id: 4, method: 'PATCH', path: '/realm', params: { name: 'Taken over' } },
    ];
    const pushed = await hubCall('mia', 'POST', '/push', { ...(await identity('mia')), client_id: CLIENT, mutations });
    expect(pushed.status).toBe(200);
    expect(pushed.body.results).toEqual([
      { mutation_id: 1, outcome: 'refused', status: 400, error: { msg: "You don't have permission to edit this message", code: 'BAD_REQUEST' } },
      { mutation_id: 2, outcome: 'refused', status: 400, error: { msg: "Not authorized to send to channel 'secret'", code: 'BAD_REQUEST' } },
      { mutation_id: 3, outcome: 'refused', status: 400, error: { msg: 'Unable to access channel (secret).', code: 'BAD_REQUEST' } },
      { mutation_id: 4, outcome: 'refused', status: 400, error: { msg: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' } },
    ]);
    expect(await world.hubEngine.db.subscriptions.get([IDS.mia, IDS.secret])).toBeUndefined();
    expect((await world.hubEngine.db.realm.get(1))?.name).toBe('Test Realm');
    expect((await world.hubEngine.db.messages.get(1))?.content).toBe('Welcome **everyone**');
    expect(await world.hubEngine.db.messages.count()).toBe(4);
  });

  it('takes any API write a replica forwards, bounded to an API path, and only what a write endpoint can hold', async () => {
    world = await SyncWorld.create();
    const mutations = [
      { mutation_id: 1, method: 'POST', path: '/users/me/alert_words', params: { alert_words: '["pizza"]' } },
      { mutation_id: 2, method: 'POST', path: '/users/me/../../../sync/v1/push', params: {} },
      { mutation_id: 3, method: 'POST', path: '/no_such_route', params: {} },
      { mutation_id: 4, method: 'DELETE', path: '/attachments/1', params: {} },
      { mutation_id: 5, method: 'PATCH', path: '/settings', params: { emojiset: 'not-a-set' } },
    ];
    const pushed = await hubCall('mia', 'POST', '/push', { ...(await identity('mia')), client_id: CLIENT, mutations });
    expect(pushed.body.results).toEqual([
      { mutation_id: 1, outcome: 'applied', answer: { alert_words: ['pizza'] } },
      { mutation_id: 2, outcome: 'refused', status: 400, error: { msg: 'POST /users/me/../../../sync/v1/push is not an API path', code: 'SYNC_UNSUPPORTED_ACTION' } },
      { mutation_id: 3, outcome: 'refused', status: 404, error: { msg: 'Not Found', code: 'BAD_REQUEST' } },
      { mutation_id: 4, outcome: 'refused', status: 400, error: { msg: 'This endpoint cannot be part of a synced change', code: 'SYNC_UNSUPPORTED_ACTION' } },
      { mutation_id: 5, outcome: 'refused', status: 400, error: { msg: 'Invalid emojiset', code: 'BAD_REQUEST' } },
    ]);
    expect((await world.hubEngine.db.alert_words.where('user_id').equals(IDS.mia).toArray()).map((w) => w.word)).toEqual(['pizza']);

    const tooMany = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`p${i}`, 'x']));
    const refused = await hubCall('mia', 'POST', '/push', {
      ...(await identity('mia')),
      client_id: CLIENT,
      mutations: [{ mutation_id: 6, method: 'PATCH', path: '/realm', params: tooMany }],
    });
    expect(refused).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_REQUEST' } });
    expect(await hubCall('mia', 'POST', '/push', {
      ...(await identity('mia')),
      client_id: CLIENT,
      mutations: [{ mutation_id: 6, method: 'PUT', path: '/realm', params: {} }],
    })).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_REQUEST' } });
  });

  it('answers a retried push with the recorded results and applies nothing twice', async () => {
    world = await SyncWorld.create();
    const body = {
      ...(await identity('mia')),
      client_id: CLIENT,
      mutations: [
        { mutation_id: 1, method: 'POST', path: '/messages', params: { type: 'stream', to: 'general', topic: 't', content: 'once' }, provisional_id: PROVISIONAL_ID_BASE },
        { mutation_id: 2, method: 'POST', path: `/messages/${PROVISIONAL_ID_BASE}/reactions`, params: { emoji_name: 'smile' } },
      ],
    };
    const first = await hubCall('mia', 'POST', '/push', body);
    const again = await hubCall('mia', 'POST', '/push', body);
    expect(first.body.results).toEqual([
      { mutation_id: 1, outcome: 'applied', answer: { id: 5 }, final_id: 5 },
      { mutation_id: 2, outcome: 'applied', answer: {} },
    ]);
    expect(again.body.results).toEqual(first.body.results);
    expect((await world.hubEngine.db.messages.toArray()).filter((m) => m.content === 'once').map((m) => m.id)).toEqual([5]);
    expect((await world.hubEngine.db.reactions.toArray()).map((r) => [r.message_id, r.user_id, r.emoji_name])).toEqual([[5, IDS.mia, 'smile']]);
  });

  it('refuses another user\'s client id, a stale epoch, bad credentials and malformed bodies', async () => {
    world = await SyncWorld.create();
    const miaIdentity = await identity('mia');
    await hubCall('mia', 'POST', '/push', { ...miaIdentity, client_id: CLIENT, mutations: [] });

    expect(await hubCall('mark', 'POST', '/push', { ...miaIdentity, client_id: CLIENT, mutations: [] })).toEqual({
      status: 403,
      body: { result: 'error', msg: 'This sync client belongs to another user', code: 'UNAUTHORIZED' },
    });
    expect(await hubCall('mia', 'POST', '/pull', { ...miaIdentity, epoch: 'an-old-epoch', cursor: 0 })).toEqual({
      status: 409,
      body: { result: 'error', msg: 'This hub was reset: a full resync is needed', code: 'SYNC_RESYNC_NEEDED', ...miaIdentity },
    });
    expect(await hubCall('mia', 'POST', '/pull', { ...miaIdentity, cursor: 10_000 })).toMatchObject({ status: 409, body: { code: 'SYNC_RESYNC_NEEDED' } });
    expect(await hubCall(null, 'GET', '/snapshot')).toEqual({
      status: 401,
      body: { result: 'error', msg: 'Missing authorization header for basic auth', code: 'UNAUTHORIZED' },
    });
    expect(await hubCall('mia', 'POST', '/pull', { ...miaIdentity, cursor: -1 })).toMatchObject({ status: 400, body: { result: 'error', code: 'BAD_REQUEST' } });
    expect(await hubCall('mia', 'POST', '/push', { ...miaIdentity, client_id: '../x', mutations: [] })).toMatchObject({ status: 400 });
    expect(await hubCall('mia', 'GET', '/nothing-here')).toMatchObject({ status: 404, body: { result: 'error', msg: 'Not Found' } });
    expect(await hubCall('mia', 'POST', '/pull', { padding: 'x'.repeat(9 * 1024 * 1024) })).toEqual({
      status: 413,
      body: { result: 'error', msg: 'Request body too large', code: 'BAD_REQUEST' },
    });
  });

  it('answers a wait at once when changes are there, and when the next one commits, with the page a pull would answer', async () => {
    world = await SyncWorld.create();
    const { body: snapshot } = await hubCall('mia', 'GET', '/snapshot');
    const wait = { hub_id: snapshot.hub_id, epoch: snapshot.epoch, cursor: snapshot.cursor, timeout_seconds: 30 };
    const waiting = hubCall('mia', 'POST', '/wait', wait);
    await world.onHub('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'wake up' });
    const { result: _result, msg: _msg, ...pulled } = (await hubCall('mia', 'POST', '/pull', { hub_id: wait.hub_id, epoch: wait.epoch, cursor: wait.cursor })).body;
    expect(pulled).toMatchObject({ cursor: snapshot.cursor + 1, more: false, deleted: [], realm_changed: false, messages: [{ message: { id: 5, content: 'wake up' } }] });
    expect(await waiting).toEqual({ status: 200, body: { result: 'success', msg: '', changed: true, page: pulled } });
    expect(await hubCall('mia', 'POST', '/wait', wait)).toEqual({ status: 200, body: { result: 'success', msg: '', changed: true, page: pulled } });

    // Nothing after this cursor: the wait runs out on the hub's clock (moved until the wait has begun).
    let quiet: unknown;
    void hubCall('mia', 'POST', '/wait', { ...wait, cursor: snapshot.cursor + 1 }).then((answer) => (quiet = answer));
    await vi.waitFor(() => {
      world.clock.advance(30_000);
      expect(quiet).toEqual({ status: 200, body: { result: 'success', msg: '', changed: false } });
    });
    expect(await hubCall('mia', 'POST', '/wait', { ...wait, timeout_seconds: 51 })).toMatchObject({ status: 400 });
  });

  it('gives a guest\'s replica none of a private channel\'s messages', async () => {
    world = await SyncWorld.create();
    const { body } = await hubCall('gail', 'GET', '/snapshot');
    expect(body.tables.messages.map((m: { id: number }) => m.id)).toEqual([1, 2]);
    expect(body.tables.channels.map((c: { id: number }) => c.id)).not.toContain(IDS.secret);
    expect(body.tables.subscriptions.some((s: { channel_id: number }) => s.channel_id === IDS.secret)).toBe(false);
    for (const table of ['invites', 'outgoing_mail', 'counters', 'realm_exports', 'channel_email_tokens', 'sync_mutations']) {
      expect(body.tables[table]).toBeUndefined();
    }

    await world.onHub('mark').post('/messages', { type: 'stream', to: 'secret', topic: 'plans', content: 'more plans' });
    const pulled = await hubCall('gail', 'POST', '/pull', { hub_id: body.hub_id, epoch: body.epoch, cursor: body.cursor });
    expect(pulled.body).toMatchObject({ messages: [], deleted: [5], realm_changed: false });
  });
});

describe('a replica', () => {
  it('answers an unknown route and a stranger\'s write itself, with nothing sent to the hub', async () => {
    world = await SyncWorld.create();
    const mia = await world.replicaOf('mia');
    await mia.replica.sync();
    expect(await mia.api.post('/no_such_route')).toEqual({ status: 404, body: { result: 'error', msg: 'Not Found', code: 'BAD_REQUEST' } });
    const stranger = new Caller((request) => mia.replica.handle(request), 'mia@zulip.test', 'NotTheKey00000000000000000000000');
    expect(await stranger.post('/users/me/alert_words', { alert_words: ['pizza'] })).toEqual({
      status: 401,
      body: { result: 'error', msg: 'Invalid API key', code: 'INVALID_API_KEY' },
    });
    expect(mia.link.pushResults).toEqual([]);
    expect(await mia.replica.status()).toBe('online');
  });

  it('queues nothing for a local change the local engine refuses', async () => {
    world = await SyncWorld.create();
    const mia = await world.replicaOf('mia');
    await mia.replica.sync();
    const refused = await mia.api.patch('/messages/1', { content: 'not mine' });
    expect(refused.status).toBe(400);
    expect(await mia.replica.engine.db.sync_outbox.count()).toBe(0);
    expect(await mia.replica.status()).toBe('online');
  });
});

describe('the engine\'s transaction hook', () => {
  it('is refused on an endpoint that is not a write, and never runs', async () => {
    world = await SyncWorld.create();
    let ran = false;
    const row = userRow('mia');
    const response = await world.hubEngine.handle(
      new Request('http://hub.test/api/v1/users/me', { headers: { Authorization: `Basic ${btoa(`${row.email}:${row.api_key}`)}` } }),
      { inTransaction: async () => void (ran = true) },
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ result: 'error', msg: 'This endpoint cannot be part of a synced change', code: 'SYNC_UNSUPPORTED_ACTION' });
    expect(ran).toBe(false);
  });

  it('rolls the action back with no event when it throws', async () => {
    world = await SyncWorld.create();
    const row = userRow('mia');
    const queue = (await import('../support/test-realm.ts')).openQueue(world.hubEngine, IDS.mia);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await world.hubEngine.handle(
      new Request('http://hub.test/api/v1/messages', {
        method: 'POST',
        headers: { Authorization: `Basic ${btoa(`${row.email}:${row.api_key}`)}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ type: 'stream', to: 'general', topic: 't', content: 'never' }).toString(),
      }),
      {
        inTransaction: async () => {
          throw new Error('the hook failed');
        },
      },
    );
    expect(response.status).toBe(500);
    expect(logged).toHaveBeenCalledOnce();
    logged.mockRestore();
    expect(await world.hubEngine.db.messages.count()).toBe(4);
    expect(queue.events).toEqual([]);
  });
});
