/**
 * The bench page (bench.html, built only for `npm run bench`): has the bench worker build the
 * 100k-message realm, then boots the app's server exactly as the app's pages do, and offers the
 * timing loops to the Node driver on `window.offlineRealmBench`.
 */
import { bootServer } from '../../src/browser-host/page/boot.ts';
import type { BenchRealm } from '../realm-fixture.ts';
import type { BenchPageApi } from './bench-protocol.ts';
import { BenchWorkerClient } from './bench-worker-client.ts';
import { EventTab } from './page-events.ts';
import { register, sendRate, smallGet, topicPage } from './page-measurements.ts';

const worker = new BenchWorkerClient();
const ready = (async (): Promise<BenchRealm> => {
  // Before the app's engine opens the database, so it starts on the finished realm.
  const realm = await worker.call<BenchRealm>({ type: 'build-realm' });
  await bootServer();
  return realm;
})();
const events = ready.then((realm) => new EventTab(realm));

window.offlineRealmBench = {
  ready,
  smallGet: async (samples, warmup) => smallGet(worker, await ready, samples, warmup),
  sendRate: async (sends) => sendRate(worker, await ready, sends),
  topicPage: async (samples, warmup) => topicPage(worker, await ready, samples, warmup),
  register: async (samples, warmup) => register(worker, await ready, samples, warmup),
  openQueue: async () => (await events).openQueue(),
  startPoll: async () => (await events).startPoll(),
  finishPoll: async () => (await events).finishPoll(),
  timedSend: async (n) => (await events).timedSend(n),
} satisfies BenchPageApi;
