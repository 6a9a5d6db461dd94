// Hub throughput with 50 syncing replicas: messages the hub took in per second while every
// trainee sends through their own replica (pushing, and pulling everyone's messages), against
// the same sends made by 50 plain API clients to the same hub, in the same run.
import { Worker } from 'node:worker_threads';
import { startHub, type BenchHub } from './sync-realm.ts';
import type { ThroughputJob } from './sync-throughput-worker.ts';

const TRAINEES = 50;
const SENDS_EACH = 10;
/** Trainees' work runs on this many threads, beside the hub's. */
const WORKERS = 2;

export interface Throughput {
  syncRate: number;
  apiRate: number;
  replicas: number;
  messages: number;
}

export async function measureThroughput(): Promise<Throughput> {
  const hub = await startHub(TRAINEES);
  try {
    const apiRate = await rate(hub, 'api');
    const syncRate = await rate(hub, 'sync');
    return { syncRate, apiRate, replicas: TRAINEES, messages: TRAINEES * SENDS_EACH };
  } finally {
    await hub.close();
  }
}

/** Messages per second from 'go' until the hub holds every one of them. */
async function rate(hub: BenchHub, mode: ThroughputJob['mode']): Promise<number> {
  const trainees = hub.users.slice(1);
  const workers = Array.from({ length: WORKERS }, (_, w) => {
    const job: ThroughputJob = { hubUrl: hub.server.url, users: trainees.filter((_, i) => i % WORKERS === w), sends: SENDS_EACH, mode };
    return new Worker(new URL('./sync-throughput-worker.ts', import.meta.url), { workerData: job });
  });
  try {
    await Promise.all(workers.map((worker) => reply(worker, 'ready')));
    const expected = (await hub.engine.db.messages.count()) + trainees.length * SENDS_EACH;
    const start = performance.now();
    const sent = Promise.all(workers.map((worker) => reply(worker, 'sent')));
    for (const worker of workers) worker.postMessage('go');
    while ((await hub.engine.db.messages.count()) < expected) await new Promise((resolve) => setTimeout(resolve, 5));
    const seconds = (performance.now() - start) / 1000;
    await sent;
    const stopped = Promise.all(workers.map((worker) => reply(worker, 'stopped')));
    for (const worker of workers) worker.postMessage('stop');
    await stopped;
    return (trainees.length * SENDS_EACH) / seconds;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}

function reply(worker: Worker, expected: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (message !== expected) return;
      worker.off('message', onMessage);
      worker.off('error', reject);
      resolve();
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}
