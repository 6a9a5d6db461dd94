import { expect, vi } from 'vitest';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { ManualClock } from '../../src/engine/clock/clock.ts';
import { Engine } from '../../src/engine/engine.ts';
import type { EngineEvent } from '../../src/engine/events/event-types.ts';
import type { EventQueue, QueueOptions } from '../../src/engine/events/event-queue.ts';
import { exportRealm, importRealm } from '../../src/engine/realm-archive/realm-archive.ts';
import type { SyncChangeRow } from '../../src/engine/storage/rows.ts';
import { syncChangeJournal } from '../../src/sync/hub/change-journal.ts';
import { SyncHub } from '../../src/sync/hub/sync-hub.ts';
import { type MutationResult, type PushAnswer, SYNC_VERSION } from '../../src/sync/protocol.ts';
import type { HubFetch } from '../../src/sync/replica/hub-client.ts';
import { SyncReplica } from '../../src/sync/replica/sync-replica.ts';
import { type ApiResult, encodeParams, IDS, openQueue, TEST_SCENARIO, type TestUser } from '../support/test-realm.ts';

const HUB_URL = 'http://hub.test:9991';

/** A replica's link to the hub, which a test can cut or make lose the hub's answers. */
export class Link {
  cut = false;
  /** The hub gets the request and acts on it, but its answer never arrives. */
  loseAnswers = false;
  /**
   * The network drops without a word: a request never reaches the hub (`request`), or the hub
   * acts on it and its answer never arrives (`answer`). Either way the call hangs until its
   * caller gives up, as a real one does.
   */
  hang: 'request' | 'answer' | null = null;
  /** The calls hanging now, by path. */
  readonly hanging: string[] = [];
  /** Runs before each request reaches the hub, with its path (a test acting in the middle of a round). */
  beforeHub: ((path: string) => Promise<void>) | null = null;
  readonly #hub: () => SyncHub;

  constructor(hub: () => SyncHub) {
    this.#hub = hub;
  }

  /** The path of every call that reached the hub over this link, in order. */
  readonly calls: string[] = [];

  /** Every mutation result the hub answered over this link, lost answers included, in order. */
  readonly pushResults: MutationResult[] = [];

  readonly fetch = async (request: Request): Promise<Response> => {
    if (this.cut) throw new TypeError('fetch failed');
    const path = new URL(request.url).pathname;
    if (this.hang === 'request') return this.#hangUntilAborted(request, path);
    await this.beforeHub?.(path);
    this.calls.push(path);
    const response = await this.#hub().handle(request);
    if (path.endsWith('/push') && response.ok) this.pushResults.push(...((await response.clone().json()) as PushAnswer).results);
    if (this.loseAnswers) throw new TypeError('the connection was reset');
    if (this.hang === 'answer') return this.#hangUntilAborted(request, path);
    return response;
  };

  #hangUntilAborted(request: Request, path: string): Promise<never> {
    const call = path.slice('/sync/v1'.length);
    this.hanging.push(call);
    return new Promise((_resolve, reject) => {
      const giveUp = () => {
        this.hanging.splice(this.hanging.indexOf(call), 1);
        reject(new DOMException('This operation was aborted', 'AbortError'));
      };
      if (request.signal.aborted) giveUp();
      else request.signal.addEventListener('abort', giveUp, { once: true });
    });
  }
}

/** Calls an engine-like `handle` as one user, the way an HTTP client would. */
export class Caller {
  readonly #handle: (request: Request) => Promise<Response>;
  readonly #authorization: string;

  constructor(handle: (request: Request) => Promise<Response>, email: string, apiKey: string) {
    this.#handle = handle;
    this.#authorization = `Basic ${btoa(`${email}:${apiKey}`)}`;
  }

  get = (path: string, params: Record<string, unknown> = {}) => this.request('GET', path, params);
  post = (path: string, params: Record<string, unknown> = {}) => this.request('POST', path, params);
  patch = (path: string, params: Record<string, unknown> = {}) => this.request('PATCH', path, params);
  delete = (path: string, params: Record<string, unknown> = {}) => this.request('DELETE', path, params);

  async request(method: string, path: string, params: Record<string, unknown> = {}): Promise<ApiResult> {
    const form = encodeParams(params);
    const inQuery = method === 'GET';
    const query = inQuery && [...form].length > 0 ? `?${form}` : '';
    const headers: Record<string, string> = { Authorization: this.#authorization };
    if (!inQuery) headers['Content-Type'] = 'application/x-www-form-urlencoded';
    const response = await this.#handle(
      new Request(`http://local.test/api/v1${path}${query}`, { method, headers, body: inQuery ? undefined : form.toString() }),
    );
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : {} };
  }
}

export const userRow = (user: TestUser) => {
  const row = TEST_SCENARIO.users.find((u) => u.email.startsWith(`${user}@`));
  if (!row) throw new Error(`no test user ${user}`);
  return row;
};

export const newEngine = (clock: ManualClock, hub: boolean) =>
  Engine.create({
    name: `sync-${crypto.randomUUID()}`,
    indexedDB: new IDBFactory(),
    IDBKeyRange,
    clock,
    passwordIterations: 1000,
    ...(hub && { writeJournal: syncChangeJournal }),
  });

export interface TestReplica {
  user: TestUser;
  replica: SyncReplica;
  link: Link;
  /** The replica's user, calling the replica's local engine. */
  api: Caller;
  userId: number;
  /** A queue on the replica's engine, as its user's client would register. */
  openQueue(): EventQueue;
}

/** A hub loaded with the test scenario, and replicas of it in the same process. */
export class SyncWorld {
  readonly clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
  hubEngine!: Engine;
  hub!: SyncHub;
  readonly replicas: TestReplica[] = [];

  static async create(): Promise<SyncWorld> {
    const world = new SyncWorld();
    world.hubEngine = await newEngine(world.clock, true);
    await world.hubEngine.loadScenario(TEST_SCENARIO);
    world.hub = new SyncHub(world.hubEngine);
    return world;
  }

  /** A user calling the hub's API directly. */
  onHub(user: TestUser): Caller {
    const row = userRow(user);
    return new Caller((request) => this.hubEngine.handle(request), row.email, row.api_key);
  }

  /** A raw call to the hub's peer protocol as `user` (null: no credentials), as a tampered replica could make it; stating this replica version unless `path` has a query of its own. */
  async peerCall(user: TestUser | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> {
    const headers: Record<string, string> = {};
    if (user) {
      const row = userRow(user);
      headers.Authorization = `Basic ${btoa(`${row.email}:${row.api_key}`)}`;
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await this.hub.handle(
      new Request(`http://hub.test/sync/v1${path}${path.includes('?') ? '' : `?version=${SYNC_VERSION}`}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    );
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }

  /** A replica of `user`'s view, reaching the hub in-process through its `Link`, or over `via` (a real socket). */
  async replicaOf(user: TestUser, via?: { fetch: HubFetch; hubUrl: string }): Promise<TestReplica> {
    const row = userRow(user);
    const engine = await newEngine(this.clock, false);
    const link = new Link(() => this.hub);
    const { fetch, hubUrl } = via ?? { fetch: link.fetch, hubUrl: HUB_URL };
    const replica = new SyncReplica({ engine, fetch, hubUrl, email: row.email, apiKey: row.api_key });
    const userId = 8 + TEST_SCENARIO.users.indexOf(row);
    const testReplica: TestReplica = {
      user,
      replica,
      link,
      api: new Caller((request) => replica.handle(request), row.email, row.api_key),
      userId,
      openQueue: () => openQueue(engine, userId),
    };
    this.replicas.push(testReplica);
    return testReplica;
  }

  /** The messages a user sees on an API (all they received, or a narrow's), as comparable data: ids, order, content, reactions, flags. */
  static async messagesSeen(api: Caller, narrow: unknown[] = []): Promise<unknown[]> {
    const { body } = await api.get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, apply_markdown: false, narrow });
    return (body.messages as Record<string, any>[]).map((m) => ({
      id: m.id,
      sender_id: m.sender_id,
      content: m.content,
      topic: m.subject,
      reactions: (m.reactions as Record<string, any>[]).map((r) => `${r.user_id}:${r.emoji_name}`).sort(),
      flags: (m.flags as string[]).filter((f) => f === 'read' || f === 'starred').sort(),
    }));
  }

  /** Stops every replica's live loop (a wait in flight ends first), then closes every engine. */
  async close(): Promise<void> {
    for (const { replica } of this.replicas) await replica.stop();
    this.hubEngine.close();
    for (const { replica } of this.replicas) replica.engine.close();
  }
}

/** Replicas of `users` on `world`, each through its first round (a snapshot). */
export async function syncedReplicas<U extends TestUser>(world: SyncWorld, ...users: U[]): Promise<Record<U, TestReplica>> {
  const replicas = {} as Record<U, TestReplica>;
  for (const user of users) {
    replicas[user] = await world.replicaOf(user);
    expect(await replicas[user].replica.sync()).toBe('online');
  }
  return replicas;
}

/** A hub and replicas of `users`, each through its first round (a snapshot). */
export async function syncedWorld<U extends TestUser>(...users: U[]): Promise<{ world: SyncWorld; replicas: Record<U, TestReplica> }> {
  const world = await SyncWorld.create();
  return { world, replicas: await syncedReplicas(world, ...users) };
}

/** Counts the snapshots a replica takes from now on (a full resync takes one). */
export function countSnapshots(replica: TestReplica): { count: number } {
  const taken = { count: 0 };
  replica.link.beforeHub = async (path) => {
    if (path.endsWith('/snapshot')) taken.count++;
  };
  return taken;
}

/** The queue is still open on the replica: no resync closed it (its client would get BAD_EVENT_QUEUE_ID). */
export function expectOpen(replica: TestReplica, queue: EventQueue): void {
  expect(() => replica.replica.engine.queues.get(queue.id, replica.userId)).not.toThrow();
}

/**
 * A synced replica watched for what an incremental round must do: tell its client's `queue` what
 * the same user's `hubQueue` on the hub hears, and take no snapshot (a resync closes the queue).
 */
export interface WatchedReplica extends TestReplica {
  queue: EventQueue;
  hubQueue: EventQueue;
  snapshots: { count: number };
}

/** Watches a replica from now on, its queues registered with `queueOptions` (e.g. capabilities) on both engines. */
export function watch(world: SyncWorld, replica: TestReplica, queueOptions: Partial<QueueOptions> = {}): WatchedReplica {
  return {
    ...replica,
    queue: openQueue(replica.replica.engine, replica.userId, queueOptions),
    hubQueue: openQueue(world.hubEngine, replica.userId, queueOptions),
    snapshots: countSnapshots(replica),
  };
}

/** Replicas of `users` on `world` (set up by the caller), each through its first round, then watched. */
export async function watchedReplicas<U extends TestUser>(world: SyncWorld, ...users: U[]): Promise<Record<U, WatchedReplica>> {
  const replicas = await syncedReplicas(world, ...users);
  const watched = {} as Record<U, WatchedReplica>;
  for (const user of users) watched[user] = watch(world, replicas[user]);
  return watched;
}

/** A hub and watched replicas of `users`, each through its first round. */
export async function watchedWorld<U extends TestUser>(...users: U[]): Promise<{ world: SyncWorld; watched: Record<U, WatchedReplica> }> {
  const world = await SyncWorld.create();
  return { world, watched: await watchedReplicas(world, ...users) };
}

/** No replica resynced since it was watched: none took a snapshot, and every client queue is still open. */
export function expectNoResync(...watched: WatchedReplica[]): void {
  expect(watched.map(({ snapshots }) => snapshots.count)).toEqual(watched.map(() => 0));
  for (const replica of watched) expectOpen(replica, replica.queue);
}

/** Pulls the whole feed again on each replica: what it brings changes nothing, so no queue hears more and none resyncs. */
export async function expectFeedPulledAgainTellsNothing(...watched: WatchedReplica[]): Promise<void> {
  const heard = watched.map(({ queue }) => queue.events.length);
  for (const { replica } of watched) {
    await replica.engine.db.sync_replica.update(1, { cursor: 0 });
    expect(await replica.sync()).toBe('online');
  }
  expect(watched.map(({ queue }) => queue.events.length)).toEqual(heard);
  expectNoResync(...watched);
}

/** The events a queue holds of the given types, without their queue ids. */
export const eventsOf = (queue: EventQueue, ...types: string[]): EngineEvent[] =>
  queue.events.filter((event) => types.includes(event.type)).map(({ id: _id, ...event }) => event as EngineEvent);

/** Whether the user's replica is waiting on the hub with its ephemeral relay queue open (a typing or presence event from now on reaches it). */
export const relayWaiting = (hub: Engine, userId: number): boolean =>
  [...hub.queues.queuesOf(userId)].some((queue) => queue.eventTypes?.has('typing') && queue.waiter !== null);

/** Mark and Mia, each on a live replica (started: `world.close()` stops them) waiting on the hub with its relay queue open. */
export async function liveRelayPair(): Promise<{ world: SyncWorld; mark: TestReplica; mia: TestReplica }> {
  const { world, replicas } = await syncedWorld('mark', 'mia');
  const { mark, mia } = replicas;
  for (const replica of [mark, mia]) replica.replica.start();
  await vi.waitFor(() => expect([relayWaiting(world.hubEngine, IDS.mark), relayWaiting(world.hubEngine, IDS.mia)]).toEqual([true, true]), {
    timeout: 5000,
    interval: 10,
  });
  return { world, mark, mia };
}

/** The hub's realm exported and imported into a new hub: its change feed comes through whole (a restored hub's replicas keep their checkpoints). */
export async function expectFeedKeptThroughArchive(world: SyncWorld, feed: readonly SyncChangeRow[]): Promise<void> {
  const copy = await newEngine(world.clock, true);
  try {
    await importRealm(copy, JSON.parse(JSON.stringify(await exportRealm(world.hubEngine))));
    expect(await copy.db.sync_changes.toArray()).toEqual(feed);
  } finally {
    copy.close();
  }
}
