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
  const opened = Engine.create({
    indexedDB: scope.indexedDB,
    IDBKeyRange: scope.IDBKeyRange,
    sharedStorage: true,
    uploads: new IndexedDbUploadStore(scope.indexedDB, scope.IDBKeyRange),
    onRequest: (entry: RequestLogEntry) => log.postMessage(entry),
  });
  // Requests wait until the database holds a realm: at once when it has one, else until the
  // first realm a page chose (`waitReady`) has loaded.
  let realmExists = () => {};
  const firstRealm = new Promise<void>((resolve, reject) => {
    realmExists = resolve;
    opened.then((engine) => engine.db.realm.get(1)).then((realm) => realm && resolve(), reject);
  });
  // Answered by each request that waits on it; nothing may be left unhandled meanwhile.
  firstRealm.catch(() => {});
  // Realm changes run one after another, and requests after the change under way when they came.
  let changes: Promise<Engine> = opened;
  const changeRealm = async (change: (engine: Engine) => Promise<void>): Promise<void> => {
    const run = changes.then(async (current) => {
      await change(current);
      return current;
    });
    // A failed change leaves the previous realm in place and the engine usable.
    changes = run.catch(() => opened);
    await run;
    realmExists();
  };
  const engine = async (): Promise<Engine> => {
    await firstRealm;
    return changes;
  };

  const control: EngineControl = {
    hello: async () => ({ lockName: await lockName }),
    waitReady: (whenEmpty) => changeRealm((current) => ensureRealm(current, whenEmpty, origin)),
    loadScenario: (source) => changeRealm((current) => replaceRealm(current, source, origin)),
    realmSummary: async () => realmSummary(await engine()),
    exportRealm: async () => exportRealm(await engine()),
    importRealm: (archive) => changeRealm((current) => importRealm(current, archive)),
    attachRelay: (port) => serveRelayPort(port, engine, guard),
  };

  scope.onconnect = (event) => expose(control, event.ports[0]);
}
