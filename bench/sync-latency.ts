// Added latency online: a send on trainee A's replica until B's client, long-polling B's replica,
// has the message event; against the same send through the hub's API until another client,
// long-polling the hub, has it. A and B each run on a thread of their own (their browsers), the
// hub on this one; both paths over loopback to the same hub, alternately, in the same run. Each
// send starts once the system is at rest: both replicas caught up and waiting at the hub, the
// listener's long-poll in place (so neither path pays for the other's background work). A third
// path, the floor, is what any replica that writes before it pushes and before it shows must
// spend: A's send on an engine with no sync, the API path, then B's write of the message. A
// fourth sends through the hub's API to B's replica: the replica's path less A's part.
import { Worker } from 'node:worker_threads';
import type { BenchUser } from './realm-fixture.ts';
import { watchOpenRequests } from './open-requests.ts';
import { median, percentile } from './stats.ts';
import { startHub } from './sync-realm.ts';
import type { LatencyCommand, LatencyJob, Via } from './sync-latency-worker.ts';

const WARMUP = 5;
const TRAINEES = 4;
const SAMPLES = 100;

export interface SyncLatency {
  replica: { p50: number; p99: number };
  api: { p50: number; p99: number };
  floor: { p50: number; p99: number };
  apiToReplica: { p50: number; p99: number };
  samples: number;
}

export async function measureSyncLatency(samples = SAMPLES): Promise<SyncLatency> {
  const hub = await startHub(TRAINEES);
  const open = watchOpenRequests(hub.server.server);
  const [, a, b, sender, reader] = hub.users as [BenchUser, BenchUser, BenchUser, BenchUser, BenchUser];
  const start = (job: Omit<LatencyJob, 'hubUrl' | 'trainees'>) =>
    new Worker(new URL('./sync-latency-worker.ts', import.meta.url), { workerData: { ...job, hubUrl: hub.server.url, trainees: TRAINEES } });
  const workers = { sender: start({ role: 'sender', user: a, apiUser: sender }), listener: start({ role: 'listener', user: b, apiUser: reader }) };
  try {
    await Promise.all([next(workers.sender, 'ready'), next(workers.listener, 'ready')]);
    const measured: Record<Via, number[]> = { replica: [], api: [], floor: [], 'api-to-replica': [] };
    for (let i = 0; i < WARMUP + samples; i++) {
      for (const via of ['replica', 'api', 'floor', 'api-to-replica'] as const) {
        const content = `${via} sample ${i}`;
        const armed = next(workers.listener, 'armed');
        const delivered = next<{ delivered: number }>(workers.listener, 'delivered');
        post(workers.listener, { expect: content, via });
        await armed;
        // A's and B's live loops wait at the hub (after catching up); the baseline's long-poll too.
        await open.until(() => open.count('/sync/v1/wait') === 2 && (via === 'replica' || via === 'api-to-replica' || open.count('/api/v1/events') === 1));
        const sent = next<{ sent: number }>(workers.sender, 'sent');
        post(workers.sender, { send: content, via });
        const ms = (await delivered).delivered - (await sent).sent;
        if (i >= WARMUP) measured[via].push(ms);
      }
    }
    await Promise.all(Object.values(workers).map((worker) => {
      const stopped = next(worker, 'stopped');
      post(worker, 'stop');
      return stopped;
    }));
    const figures = (ms: number[]) => ({ p50: median(ms), p99: percentile(ms, 99) });
    return { replica: figures(measured.replica), api: figures(measured.api), floor: figures(measured.floor), apiToReplica: figures(measured['api-to-replica']), samples };
  } finally {
    await Promise.all(Object.values(workers).map((worker) => worker.terminate()));
    await hub.close();
  }
}

const post = (worker: Worker, command: LatencyCommand): void => worker.postMessage(command);

/** The worker's next message that is `expected`, or an object with that key. */
function next<T = unknown>(worker: Worker, expected: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      const matches = message === expected || (typeof message === 'object' && message !== null && expected in message);
      if (!matches) return;
      worker.off('message', onMessage);
      worker.off('error', reject);
      resolve(message as T);
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}
