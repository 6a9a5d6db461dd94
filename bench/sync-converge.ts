// Time to converge after a partition: two replicas, each with 1,000 changes made offline (sends,
// and edits and reactions of those sends), healed at once; done when both have pushed every
// change and pulled the hub's feed to its end. The baseline: the hub taking the same changes
// from two plain API clients over loopback, in the same run.
import { HubUnreachable } from '../src/sync/replica/hub-client.ts';
import type { SyncReplica } from '../src/sync/replica/sync-replica.ts';
import { currentSeq } from '../src/sync/hub/hub-identity.ts';
import { apiRequest } from './api-client.ts';
import type { BenchUser } from './realm-fixture.ts';
import { type BenchHub, newReplica, roomMessage, startHub } from './sync-realm.ts';

const CHANGES = 1_000;

export interface Convergence {
  seconds: number;
  /** The same changes sent straight to the hub's API by two clients at once. */
  apiSeconds: number;
  changesEach: number;
}

type Handle = (request: Request) => Promise<Response>;

export async function measureConvergence(): Promise<Convergence> {
  return { seconds: await throughReplicas(), apiSeconds: await throughTheApi(), changesEach: CHANGES };
}

async function throughTheApi(): Promise<number> {
  const hub = await startHub(2);
  try {
    const overHttp: Handle = (request) => {
      const url = new URL(request.url);
      return fetch(new Request(new URL(url.pathname, hub.server.url), request));
    };
    const start = performance.now();
    await Promise.all([1, 2].map((i) => makeChanges(overHttp, hub.users[i]!)));
    return (performance.now() - start) / 1000;
  } finally {
    await hub.close();
  }
}

async function throughReplicas(): Promise<number> {
  const hub = await startHub(2);
  try {
    const sides = await Promise.all([1, 2].map(async (i) => ({ user: hub.users[i]!, replica: await newReplica(hub.server.url, hub.users[i]!) })));
    for (const { replica } of sides) await expectStatus(replica, 'online');
    // The partition: no replica reaches the hub while the changes are made.
    for (const { user, replica } of sides) await makeChanges((request) => replica.handle(request), user);
    for (const { replica } of sides) await expectPending(replica, CHANGES);

    const start = performance.now();
    for (const { replica } of sides) replica.start();
    await converged(hub, sides.map((s) => s.replica));
    const seconds = (performance.now() - start) / 1000;
    for (const { replica } of sides) {
      await replica.stop();
      replica.engine.close();
    }
    return seconds;
  } finally {
    await hub.close();
  }
}

/** 60% sends, 20% edits and 20% reactions of this side's own offline sends. */
async function makeChanges(handle: Handle, user: BenchUser): Promise<void> {
  const sent: number[] = [];
  for (let n = 0; n < CHANGES; n++) {
    const kind = n % 5;
    const target = sent[Math.floor(n / 5)];
    const request =
      kind === 3 && target !== undefined
        ? apiRequest(user, 'PATCH', `/messages/${target}`, { content: `offline message ${target}, edited` })
        : kind === 4 && target !== undefined
          ? apiRequest(user, 'POST', `/messages/${target}/reactions`, { emoji_name: 'octopus' })
          : apiRequest(user, 'POST', '/messages', roomMessage(`offline change ${n} from ${user.email}`, 'partition'));
    const response = await handle(request);
    if (!response.ok) throw new Error(`a local change answered ${response.status}: ${await response.text()}`);
    const body = (await response.json()) as { id?: number };
    if (body.id !== undefined) sent.push(body.id);
  }
}

/** Both replicas have nothing left to push and have pulled the hub's whole feed. */
async function converged(hub: BenchHub, replicas: SyncReplica[]): Promise<void> {
  for (;;) {
    const seq = await currentSeq(hub.engine.db);
    const states = await Promise.all(replicas.map(async (r) => ({ state: await r.engine.db.sync_replica.get(1), outbox: await r.engine.db.sync_outbox.count() })));
    if (states.every(({ state, outbox }) => outbox === 0 && state?.cursor === seq)) return;
    const failed = replicas.find((r) => r.lastError && !(r.lastError instanceof HubUnreachable));
    if (failed) throw failed.lastError;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function expectStatus(replica: SyncReplica, status: string): Promise<void> {
  const actual = await replica.sync();
  if (actual !== status) throw new Error(`replica is ${actual}, not ${status}: ${replica.lastError?.message}`);
}

async function expectPending(replica: SyncReplica, count: number): Promise<void> {
  const pending = await replica.engine.db.sync_outbox.count();
  if (pending !== count) throw new Error(`${pending} changes pending, not ${count}`);
}
