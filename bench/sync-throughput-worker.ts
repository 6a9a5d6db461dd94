// A bench worker: its share of the 50 trainees, either as syncing replicas (each sends through
// its own replica, whose live loop pushes to the hub and pulls everyone's messages) or as plain
// API clients sending straight to the hub. Off the hub's thread, as trainees' browsers are.
import { parentPort, workerData } from 'node:worker_threads';
import type { SyncReplica } from '../src/sync/replica/sync-replica.ts';
import { apiRequest } from './api-client.ts';
import type { BenchUser } from './realm-fixture.ts';
import { newReplica, roomMessage } from './sync-realm.ts';

export interface ThroughputJob {
  hubUrl: string;
  users: BenchUser[];
  sends: number;
  mode: 'sync' | 'api';
}

const job = workerData as ThroughputJob;
const port = parentPort!;
const replicas = new Map<BenchUser, SyncReplica>();

if (job.mode === 'sync') {
  for (const user of job.users) {
    const replica = await newReplica(job.hubUrl, user);
    const status = await replica.sync();
    if (status !== 'online') throw new Error(`a replica is ${status}: ${replica.lastError?.message}`);
    replicas.set(user, replica);
  }
}
port.postMessage('ready');

port.on('message', async (command: 'go' | 'stop') => {
  if (command === 'go') {
    for (const replica of replicas.values()) replica.start();
    await Promise.all(job.users.map((user) => sendAll(user)));
    port.postMessage('sent');
    return;
  }
  for (const replica of replicas.values()) {
    await replica.stop();
    replica.engine.close();
  }
  port.postMessage('stopped');
});

/** One trainee's messages, one after the other, as a person types them. */
async function sendAll(user: BenchUser): Promise<void> {
  const replica = replicas.get(user);
  for (let n = 0; n < job.sends; n++) {
    const request = apiRequest(user, 'POST', '/messages', roomMessage(`${job.mode} message ${n} from ${user.email}`));
    const response = replica ? await replica.handle(request) : await fetch(new Request(new URL('/api/v1/messages', job.hubUrl), request));
    if (!response.ok) throw new Error(`a send answered ${response.status}: ${await response.text()}`);
    await response.body?.cancel();
  }
}
