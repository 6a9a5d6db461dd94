/// <reference types="vite/client" />
import type { EngineConnection } from './engine-connection.ts';
import { ENGINE_WORKER_NAME, type SharedEngineOptions, startEngine } from './engine-start.ts';
import { joinRequestedHub, showSyncStatus } from './hub-link.ts';
import { answerPortRequests, serviceWorkerAvailable, takeControl } from './service-worker-link.ts';
import { DEFAULT_SCENARIO } from '../protocol/default-scenario.ts';
import type { CacheShellMessage } from '../protocol/relay-protocol.ts';

/** Served from source by `vite dev`, built to the site root by `vite build`. */
const SERVICE_WORKER_URL = import.meta.env.DEV ? '/worker/service-worker.ts' : '/sw.js';

/**
 * Starts the in-browser server for this page: the engine's SharedWorker (shared by every tab),
 * the Service Worker that relays `/api/v1/*` to it, and the ports between them. Resolves once
 * the page is controlled and the engine has a realm (the demo on a first visit), and marks the
 * page with `data-server="ready"`; from then on `fetch('/api/v1/...')` is answered by the engine.
 * `/?scenario=NAME` first replaces the realm with /scenarios/NAME.json; `/?sync=<hub URL>`
 * makes the browser a replica of that hub (hub-link.ts, `data-sync`). Then the Service
 * Worker caches the app shell, and `data-shell="cached"` says the app opens offline.
 *
 * A page that is no secure context (plain http from a LAN address, as in a training room) has no
 * Service Worker: it relays its own `fetch` calls to the engine instead (fetch-relay.ts), and
 * nothing is cached for offline reloads.
 */
export async function bootServer(): Promise<EngineConnection> {
  const root = document.documentElement;
  root.dataset.server = 'starting';
  try {
    const engine = startEngine({
      // The options must stay literals: the bundler reads them to build the worker.
      shared: () =>
        new SharedWorker(new URL('../../../worker/engine-worker.ts', import.meta.url), {
          type: 'module',
          name: ENGINE_WORKER_NAME,
          extendedLifetime: true,
        } as SharedEngineOptions),
      dedicated: () =>
        new Worker(new URL('../../../worker/engine-worker.ts', import.meta.url), {
          type: 'module',
          name: ENGINE_WORKER_NAME,
        }),
    });
    const serviceWorker = serviceWorkerAvailable();
    if (serviceWorker) answerPortRequests(engine);
    // Loaded only where there is no Service Worker: other pages never parse the page-side relay.
    const pageRelay = serviceWorker ? undefined : import('./fetch-relay.ts').then(({ relayPageFetches }) => relayPageFetches(engine));
    // The first realm loads while the Service Worker installs; a replica (`?sync=`) loads none.
    const realm = joinRequestedHub(engine).then(() => engine.waitReady({ name: DEFAULT_SCENARIO }));
    await Promise.all([serviceWorker ? takeControl(SERVICE_WORKER_URL) : pageRelay, realm]);
    await loadRequestedScenario(engine);
    await showSyncStatus(engine);
    root.dataset.server = 'ready';
    if (!serviceWorker) return engine;
    // Once the page has drawn what it was drawing: the download competes with it.
    if (typeof requestIdleCallback === 'function') requestIdleCallback(cacheShell, { timeout: 5000 });
    else setTimeout(cacheShell, 500);
    return engine;
  } catch (error) {
    root.dataset.server = 'failed';
    throw error;
  }
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
  await engine.loadScenario({ name });
  // A reload must not wipe the realm again.
  url.searchParams.delete('scenario');
  history.replaceState(history.state, '', url);
}
