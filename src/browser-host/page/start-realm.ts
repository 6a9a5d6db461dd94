import type { ScenarioInput } from '../../engine/scenario/index.ts';
import type { ScenarioSource } from '../protocol/engine-control.ts';
import type { RealmSummary } from '../protocol/relay-protocol.ts';
import { ENGINE_WORKER_NAME, type SharedEngineOptions, startEngine } from './engine-start.ts';
import { answerPortRequests, serviceWorkerAvailable, takeControl } from './service-worker-link.ts';
import { relayPageFetches } from './fetch-relay.ts';
import { ENGINE_WORKER_FILE } from '../protocol/worker-files.ts';

/**
 * `offline-realm/browser`: the in-browser server inside a page of one's own app. Bundled with
 * the worker files by scripts/build-package.ts; `npx offline-realm init public/` copies those.
 */

export type { RealmSummary, ScenarioInput };

export interface StartRealmOptions {
  /**
   * The realm to load when this origin's browser database holds none yet (or always, with
   * `reset`): a scenario, or the URL of its JSON file (relative to the page).
   */
  scenario: ScenarioInput | string;
  /** Where the Service Worker file is served, e.g. `/offline-realm-sw.js`; it controls the whole site (scope `/`). */
  serviceWorkerUrl: string;
  /** Where the engine worker file is served; by default `offline-realm-engine.js` beside the Service Worker. */
  engineWorkerUrl?: string;
  /** Replace the realm with `scenario` even when the database already holds one (the realm is kept otherwise). */
  reset?: boolean;
}

const INIT_COMMAND = 'npx offline-realm init public/';

/**
 * Starts the in-browser server for this origin and resolves once this page's
 * `fetch('/api/v1/...')` and `/user_uploads/...` are answered by it. Call it once per page,
 * before the page's first API call. The realm lives in the origin's IndexedDB, shared by its
 * tabs and kept across reloads. Resolves with the realm's name, host and people with their API
 * keys (HTTP Basic auth: `email:apiKey`). Rejects with an Error that says how to fix it when the
 * worker files are not served where the options say, or names the fault of a faulty scenario
 * (which changes nothing).
 *
 * A page that is no secure context (plain http from anything but localhost) has no Service
 * Worker: there the page relays its own `fetch` calls to the engine (`window.fetch` is wrapped),
 * and what the browser loads by itself, such as an `<img src>` of an upload, goes to the network.
 */
export async function startRealm(options: StartRealmOptions): Promise<RealmSummary> {
  const serviceWorker = serviceWorkerAvailable();
  const serviceWorkerUrl = new URL(options.serviceWorkerUrl, location.href);
  const engineWorkerUrl = new URL(options.engineWorkerUrl ?? ENGINE_WORKER_FILE, serviceWorkerUrl);
  // Both at once; the first file's fault is told first.
  const checks = await Promise.allSettled([
    serviceWorker ? checkWorkerFile(serviceWorkerUrl, 'serviceWorkerUrl') : undefined,
    checkWorkerFile(engineWorkerUrl, 'engineWorkerUrl'),
  ]);
  for (const check of checks) if (check.status === 'rejected') throw check.reason;

  const engine = startEngine({
    shared: () => new SharedWorker(engineWorkerUrl, { type: 'module', name: ENGINE_WORKER_NAME, extendedLifetime: true } as SharedEngineOptions),
    dedicated: () => new Worker(engineWorkerUrl, { type: 'module', name: ENGINE_WORKER_NAME }),
  });
  if (serviceWorker) answerPortRequests(engine);
  else relayPageFetches(engine);
  const source = scenarioSource(options.scenario);
  const loading = (options.reset ? engine.loadScenario(source) : engine.waitReady(source)).catch((error: unknown) => {
    throw new Error(`offline-realm: cannot load the scenario: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  });
  // The realm loads while the Service Worker installs.
  await Promise.all([serviceWorker ? takeControl(serviceWorkerUrl.href) : undefined, loading]);
  return engine.realmSummary();
}

function scenarioSource(scenario: ScenarioInput | string): ScenarioSource {
  // The engine worker fetches it, so a URL relative to this page must be made absolute here.
  return typeof scenario === 'string' ? { url: new URL(scenario, location.href).href } : { scenario };
}

/**
 * A worker file that is missing makes the browser fail late and vaguely (a rejected
 * registration, a worker that never answers); a dev server may even answer its URL with the
 * app's index.html. Only the answer's status and type are read.
 */
async function checkWorkerFile(url: URL, option: keyof StartRealmOptions): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch {
    // Offline: the browser may still have the worker it registered before.
    return;
  }
  void response.body?.cancel();
  const type = response.headers.get('content-type')?.split(';')[0].trim() ?? '';
  if (response.ok && /javascript|ecmascript/i.test(type)) return;
  const answer = response.ok ? `${type || 'no content type'}, not JavaScript` : `HTTP ${response.status}`;
  throw new Error(
    `offline-realm: no worker file at ${url.pathname} (the server answers ${answer}). ` +
      `Copy the worker files into the folder your site serves at its root with \`${INIT_COMMAND}\`, ` +
      `or set ${option} to where they are.`,
  );
}
