import { startElectedEngine } from './elected-engine.ts';
import { EngineConnection } from './engine-connection.ts';
import type { EngineConnectMessage } from '../protocol/leader-protocol.ts';

/**
 * Starts the engine worker file, as a SharedWorker or as a dedicated worker. Functions, since
 * the app's bundler must see `new SharedWorker(new URL(..., import.meta.url), {...})` literally
 * to build the worker (page/boot.ts), while a package user's page names a served file
 * (page/start-realm.ts).
 */
export interface EngineWorkers {
  shared(): SharedWorker;
  dedicated(): Worker;
}

/** Every tab of an origin shares one engine, which this name (with the file's URL) identifies. */
export const ENGINE_WORKER_NAME = 'offline-realm-engine';

/**
 * `extendedLifetime` (newer Chromium; ignored elsewhere) keeps the engine alive for a moment
 * after its last tab unloads, so a reload of the only tab finds it warm instead of starting it
 * again (module code, database, caches: ~350 ms measured).
 */
export type SharedEngineOptions = WorkerOptions & { extendedLifetime: boolean };

/** The page's connection to the engine, shared by every tab of the origin where it can be. */
export function startEngine(workers: EngineWorkers): EngineConnection {
  if (typeof SharedWorker === 'function') return new EngineConnection(workers.shared().port);
  // Chrome on Android has no SharedWorker: one tab hosts the engine for all (elected-engine.ts),
  // which takes Web Locks and the Service Worker, both missing outside a secure context.
  if (navigator.serviceWorker && navigator.locks) return startElectedEngine(workers.dedicated);
  return ownEngine(workers.dedicated());
}

/**
 * With neither SharedWorker nor a Service Worker, no tab can reach another's worker: each tab
 * runs an engine of its own over the origin's database. One tab at a time then (docs/SYNC.md).
 */
function ownEngine(worker: Worker): EngineConnection {
  const channel = new MessageChannel();
  worker.postMessage({ type: 'engine-connect', port: channel.port2 } satisfies EngineConnectMessage, [channel.port2]);
  return new EngineConnection(channel.port1);
}
