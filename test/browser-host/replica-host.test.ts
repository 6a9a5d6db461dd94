import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ReplicaHost, type ReplicaHostOptions } from '../../src/browser-host/engine-worker/replica-host.ts';
import { ReplicaLinkStore } from '../../src/browser-host/engine-worker/replica-link-store.ts';
import type { Engine } from '../../src/engine/engine.ts';
import { unreadJsonAnswer } from '../../src/engine/http/json-answer-response.ts';
import { CALL_DEADLINE_MS } from '../../src/sync/replica/hub-client.ts';
import type { SyncReport } from '../../src/sync/replica/sync-replica.ts';
import { IDS, TEST_SCENARIO } from '../support/test-realm.ts';
import { Caller, Link, newEngine, SyncWorld, userRow } from '../sync/sync-fixture.ts';

const HUB_URL = 'http://hub.test:9991';
const MARK = userRow('mark');

let world: SyncWorld;
let hosts: ReplicaHost[] = [];
let engines: Engine[] = [];
afterEach(async () => {
  for (const host of hosts) await host.stop();
  for (const engine of engines) engine.close();
  world?.close();
  hosts = [];
  engines = [];
});

/** A browser's engine worker as far as the replica needs it: its engine, its link store, its way to the hub. */
async function browser() {
  world ??= await SyncWorld.create();
  const engine = await newEngine(world.clock, false);
  engines.push(engine);
  const link = new Link(() => world.hub);
  const reports: SyncReport[] = [];
  const options: ReplicaHostOptions = {
    engine,
    store: new ReplicaLinkStore(new IDBFactory(), IDBKeyRange),
    fetch: link.fetch,
    onReport: (report) => reports.push(report),
  };
  return { engine, link, options, reports };
}

function logIn(host: ReplicaHost, password: string) {
  return new Caller((request) => host.handle(request), '', '').request('POST', '/fetch_api_key', { username: MARK.email, password });
}

describe('a browser joining a hub', () => {
  it('is no replica until told so', async () => {
    const { options } = await browser();
    expect(await ReplicaHost.resume(options)).toBeNull();
  });

  it('takes the snapshot of the user who logs in first, checked by the hub, and remembers both', async () => {
    world = await SyncWorld.create();
    const { options, reports, engine } = await browser();
    const host = await ReplicaHost.join(options, HUB_URL);
    hosts.push(host);
    expect(await options.store.get()).toEqual({ hub_url: HUB_URL });
    expect(await host.report()).toBeNull();

    expect(await logIn(host, 'mark-pass')).toEqual({
      status: 200,
      body: { result: 'success', msg: '', api_key: MARK.api_key, email: MARK.email, user_id: IDS.mark },
    });
    expect(await options.store.get()).toEqual({ hub_url: HUB_URL, email: MARK.email, api_key: MARK.api_key });
    expect((await engine.db.users.get(IDS.mark))?.api_key).toBe(MARK.api_key);
    expect(reports.map((report) => report.status)).toContain('online');

    const mark = new Caller((request) => host.handle(request), MARK.email, MARK.api_key);
    expect(await SyncWorld.messagesSeen(mark)).toEqual(await SyncWorld.messagesSeen(world.onHub('mark')));
  });

  it("hands its engine's JSON answers over unbuilt when the relay asks, for reads and for queued writes", async () => {
    world = await SyncWorld.create();
    const { options } = await browser();
    const host = await ReplicaHost.join(options, HUB_URL);
    hosts.push(host);
    await logIn(host, 'mark-pass');
    const headers = { Authorization: `Basic ${btoa(`${MARK.email}:${MARK.api_key}`)}`, 'Content-Type': 'application/x-www-form-urlencoded' };
    const asRelay = (method: string, path: string, body?: string) =>
      host.handle(new Request(`http://local.test/api/v1${path}`, { method, headers, body }), { writesJsonItself: true });

    const me = unreadJsonAnswer(await asRelay('GET', '/users/me'));
    const sent = unreadJsonAnswer(await asRelay('POST', '/messages', 'type=stream&to=general&topic=relay&content=hi'));

    expect([me?.status, JSON.parse(me?.text ?? '{}').email]).toEqual([200, MARK.email]);
    expect([sent?.status, JSON.parse(sent?.text ?? '{}').result]).toEqual([200, 'success']);
  });

  it('refuses a wrong password with the hub\'s answer and stays without a realm', async () => {
    world = await SyncWorld.create();
    const { options, engine } = await browser();
    const host = await ReplicaHost.join(options, HUB_URL);
    expect(await logIn(host, 'nope')).toEqual({
      status: 401,
      body: { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' },
    });
    expect(await options.store.get()).toEqual({ hub_url: HUB_URL });
    expect(await engine.db.realm.get(1)).toBeUndefined();
  });

  it('cannot log in for the first time while the hub is out of reach', async () => {
    world = await SyncWorld.create();
    const { options, link, engine } = await browser();
    const host = await ReplicaHost.join(options, HUB_URL);
    link.cut = true;
    expect(await logIn(host, 'mark-pass')).toEqual({
      status: 503,
      body: { result: 'error', msg: `The hub at ${HUB_URL} cannot be reached (fetch failed); log in once while it can`, code: 'SYNC_HUB_UNREACHABLE' },
    });
    expect(await options.store.get()).toEqual({ hub_url: HUB_URL });
    expect(await engine.db.realm.get(1)).toBeUndefined();
  });

  it('gives up on a first login the hub never answers, and lets the next one through once the link is back', async () => {
    world = await SyncWorld.create();
    const { options, link } = await browser();
    const host = await ReplicaHost.join(options, HUB_URL);
    link.hang = 'request';
    const first = logIn(host, 'mark-pass');
    // A second try while the first hangs waits behind it.
    const second = logIn(host, 'mark-pass');
    await vi.waitFor(() => expect(link.hanging).toEqual(['/fetch_api_key']), { timeout: 5000, interval: 10 });
    // The link comes back for the calls after it; the hanging one is given up at its deadline.
    link.hang = null;
    world.clock.advance(CALL_DEADLINE_MS);
    expect(await first).toEqual({
      status: 503,
      body: { result: 'error', msg: `The hub at ${HUB_URL} cannot be reached (the hub did not answer within 20 s); log in once while it can`, code: 'SYNC_HUB_UNREACHABLE' },
    });
    expect((await second).body).toMatchObject({ result: 'success', api_key: MARK.api_key });
    expect(await options.store.get()).toEqual({ hub_url: HUB_URL, email: MARK.email, api_key: MARK.api_key });
  });

  it('stays a replica after a restart with the hub out of reach: the user logs in locally and keeps sending', async () => {
    world = await SyncWorld.create();
    const first = await browser();
    const host = await ReplicaHost.join(first.options, HUB_URL);
    await logIn(host, 'mark-pass');
    await host.stop();

    first.link.cut = true;
    const again = await ReplicaHost.resume(first.options);
    if (!again) throw new Error('the replica was forgotten');
    hosts.push(again);
    expect(again.hubUrl).toBe(HUB_URL);
    expect((await logIn(again, 'mark-pass')).body).toMatchObject({ result: 'success', api_key: MARK.api_key });
    const mark = new Caller((request) => again.handle(request), MARK.email, MARK.api_key);
    expect((await mark.post('/messages', { type: 'stream', to: 'general', topic: 'offline', content: 'from the train' })).status).toBe(200);
    expect((await mark.get('/offline_realm/sync')).body).toMatchObject({ hub_url: HUB_URL, pending: 1 });
  });

  it('deletes the realm the browser held when it joins', async () => {
    world = await SyncWorld.create();
    const { options, engine } = await browser();
    await engine.loadScenario(TEST_SCENARIO);
    await ReplicaHost.join(options, HUB_URL);
    expect(await engine.db.realm.get(1)).toBeUndefined();
    expect(await engine.db.messages.count()).toBe(0);
  });
});
