import { expose } from 'comlink';
import { Engine, type RequestLogEntry } from '../../engine/engine.ts';
import { exportRealm, importRealm } from '../../engine/realm-archive/realm-archive.ts';
import { holdEngineLock } from '../protocol/engine-lock.ts';
import { ensureRealm, replaceRealm } from './realm-loader.ts';
import { realmSummary } from './realm-summary.ts';
import type { EngineControl } from '../protocol/engine-control.ts';
import { REQUEST_LOG_CHANNEL } from '../protocol/relay-protocol.ts';
import { serveRelayPort } from './relay-server.ts';
import { ReplayGuard } from './replay-guard.ts';
import { IndexedDbUploadStore } from './indexeddb-upload-store.ts';

/** The SharedWorker global, as far as the host needs it. */
export interface SharedWorkerScope {
  location: { origin: string };
  navigator: { locks: LockManager };
  indexedDB: IDBFactory;
  IDBKeyRange: typeof IDBKeyRange;
  onconnect: ((event: MessageEvent) => void) | null;
}

/**
 * Runs the engine in the SharedWorker: one engine over the origin's IndexedDB for every tab.
 * Pages connect to it directly (readiness, scenario loading, realm export and import, the
 * console's realm summary) and hand it ports whose other end belongs to the Service Worker,
 * which relays `/api/v1/*` and `/user_uploads/*` fetches. Uploaded files live as Blobs in a
 * database of their own (indexeddb-upload-store.ts).
 */
export function startEngineHost(scope: SharedWorkerScope): void {
  const lockName = holdEngineLock(scope.navigator.locks);
  const origin = scope.location.origin;
  const log = new BroadcastChannel(REQUEST_LOG_CHANNEL);
  const guard = new ReplayGuard();
  // Requests take the engine from this chain: one that arrives during a scenario load runs after it.
  let ready: Promise<Engine> = Engine.create({
    indexedDB: scope.indexedDB,
    IDBKeyRange: scope.IDBKeyRange,
    uploads: new IndexedDbUploadStore(scope.indexedDB, scope.IDBKeyRange),
    onRequest: (entry: RequestLogEntry) => log.postMessage(entry),
  }).then(async (engine) => {
    await ensureRealm(engine, origin);
    return engine;
  });
  const engine = () => ready;

  const control: EngineControl = {
    hello: async () => ({ lockName: await lockName }),
    async waitReady() {
      await ready;
    },
    async loadScenario(name) {
      const previous = ready;
      const loading = previous.then(async (current) => {
        await replaceRealm(current, name, origin);
        return current;
      });
      // A failed load leaves the previous realm in place and the engine usable.
      ready = loading.catch(() => previous);
      await loading;
    },
    realmSummary: async () => realmSummary(await ready),
    exportRealm: async () => exportRealm(await ready),
    async importRealm(archive) {
      const previous = ready;
      const importing = previous.then(async (current) => {
        await importRealm(current, archive);
        return current;
      });
      // As for a scenario: a refused archive leaves the previous realm in place.
      ready = importing.catch(() => previous);
      await importing;
    },
    attachRelay: (port) => serveRelayPort(port, engine, guard),
  };

  scope.onconnect = (event) => expose(control, event.ports[0]);
}
