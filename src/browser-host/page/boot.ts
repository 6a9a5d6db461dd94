/// <reference types="vite/client" />
import { startElectedEngine } from './elected-engine.ts';
import { EngineConnection } from './engine-connection.ts';
import type { CacheShellMessage, ClaimMessage, EnginePortMessage, NeedPortMessage } from '../protocol/relay-protocol.ts';

/** Served from source by `vite dev`, built to the site root by `vite build`. */
const SERVICE_WORKER_URL = import.meta.env.DEV ? '/worker/service-worker.ts' : '/sw.js';

/**
 * Starts the in-browser server for this page: the engine's SharedWorker (shared by every tab),
 * the Service Worker that relays `/api/v1/*` to it, and the ports between them. Resolves once
 * the page is controlled and the engine has a realm, and marks the page with
 * `data-server="ready"`; from then on `fetch('/api/v1/...')` is answered by the engine.
 * `/?scenario=NAME` first replaces the realm with /scenarios/NAME.json. Then the Service
 * Worker caches the app shell, and `data-shell="cached"` says the app opens offline.
 */
export async function bootServer(): Promise<EngineConnection> {
  const root = document.documentElement;
  root.dataset.server = 'starting';
  try {
    const engine = startEngine();
    answerPortRequests(engine);
    await takeControl();
    await engine.waitReady();
    await loadRequestedScenario(engine);
    root.dataset.server = 'ready';
    // Once the page has drawn what it was drawing: the download competes with it.
    if (typeof requestIdleCallback === 'function') requestIdleCallback(cacheShell, { timeout: 5000 });
    else setTimeout(cacheShell, 500);
    return engine;
  } catch (error) {
    root.dataset.server = 'failed';
    throw error;
  }
}

function startEngine(): EngineConnection {
  // Chrome on Android has no SharedWorker: one tab hosts the engine for all (elected-engine.ts).
  if (typeof SharedWorker !== 'function') return startElectedEngine();
  // The options must stay a literal: the bundler reads them to build the worker.
  // `extendedLifetime` (newer Chromium; ignored elsewhere) keeps the engine alive for a moment
  // after its last tab unloads, so a reload of the only tab finds it warm instead of starting it
  // again (module code, database, caches: ~350 ms measured).
  const worker = new SharedWorker(new URL('../../../worker/engine-worker.ts', import.meta.url), {
    type: 'module',
    name: 'offline-realm-engine',
    extendedLifetime: true,
  } as WorkerOptions & { extendedLifetime: boolean });
  return new EngineConnection(worker.port);
}

/** The Service Worker asks for a port whenever it has none (first request, after a restart). */
function answerPortRequests(engine: EngineConnection): void {
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<NeedPortMessage>) => {
    const reply = event.ports[0];
    if (event.data?.type !== 'need-port' || !reply) return;
    // Asked each time: without SharedWorker the engine (and its lock) changes when a leader tab closes.
    void engine.hello().then(({ lockName }) => {
      const channel = new MessageChannel();
      engine.attachRelay(channel.port1);
      const offer: EnginePortMessage = { type: 'engine-port', port: channel.port2, lockName };
      reply.postMessage(offer, [channel.port2]);
    });
  });
  // Messages from the Service Worker wait in a queue until this call.
  navigator.serviceWorker.startMessages();
}

/** Until the page is controlled, its fetches bypass the Service Worker and reach no engine. */
async function takeControl(): Promise<void> {
  const container = navigator.serviceWorker;
  const controlled = new Promise<void>((resolve) => {
    if (container.controller) resolve();
    else container.addEventListener('controllerchange', () => resolve(), { once: true });
  });
  const registration = await container.register(SERVICE_WORKER_URL, { type: 'module', scope: '/' });
  if (!container.controller) {
    // An active worker does not claim a page loaded by a hard reload; ask it to.
    const active = registration.active ?? (await container.ready).active;
    active?.postMessage({ type: 'claim' } satisfies ClaimMessage);
  }
  await controlled;
}

/** Asks the Service Worker to cache the app shell (no answer under `vite dev`: nothing to cache). */
function cacheShell(): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = ({ data: complete }: MessageEvent<boolean>) => {
    if (complete) document.documentElement.dataset.shell = 'cached';
    channel.port1.close();
  };
  navigator.serviceWorker.controller?.postMessage({ type: 'cache-shell' } satisfies CacheShellMessage, [channel.port2]);
}

async function loadRequestedScenario(engine: EngineConnection): Promise<void> {
  const url = new URL(location.href);
  const name = url.searchParams.get('scenario');
  if (name === null) return;
  await engine.loadScenario(name);
  // A reload must not wipe the realm again.
  url.searchParams.delete('scenario');
  history.replaceState(history.state, '', url);
}
