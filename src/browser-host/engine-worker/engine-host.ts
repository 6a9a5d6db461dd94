import { expose } from 'comlink';
import { Engine, type RequestLogEntry } from '../../engine/engine.ts';
import { exportRealm, importRealm } from '../../engine/realm-archive/realm-archive.ts';
import { holdEngineLock } from '../protocol/engine-lock.ts';
import { ensureRealm, replaceRealm } from './realm-loader.ts';
import { realmSummary } from './realm-summary.ts';
import { type EngineControl, type JoinAnswer, SYNC_STATUS_CHANNEL } from '../protocol/engine-control.ts';
import { REQUEST_LOG_CHANNEL } from '../protocol/relay-protocol.ts';
import { type RequestHandler, serveRelayPort } from './relay-server.ts';
import { ReplayGuard } from './replay-guard.ts';
import { IndexedDbUploadStore } from './indexeddb-upload-store.ts';
import { ReplicaHost, type ReplicaHostOptions } from './replica-host.ts';
import { ReplicaLinkStore } from './replica-link-store.ts';

/** The SharedWorker global, as far as the host needs it. */
export interface SharedWorkerScope {
  location: { origin: string };
  /** `locks` is missing outside a secure context. */
  navigator: { locks?: LockManager };
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
    uploads: new IndexedDbUploadStore(scope.indexedDB, scope.IDBKeyRange),
    // Posted in a later task, once the answer is on its way: the console's log is not the request's work.
    onRequest: (entry: RequestLogEntry) => setTimeout(() => log.postMessage(entry)),
  });
  const syncStatus = new BroadcastChannel(SYNC_STATUS_CHANNEL);
  const replicaOptions = opened.then(
    (engine): ReplicaHostOptions => ({
      engine,
      store: new ReplicaLinkStore(scope.indexedDB, scope.IDBKeyRange),
      fetch: (request) => fetch(request),
      onReport: (report) => syncStatus.postMessage(report.status),
    }),
  );
  let replica: Promise<ReplicaHost | null> = replicaOptions.then((options) => ReplicaHost.resume(options));
  // Answered by each call that waits on it.
  replica.catch(() => {});
  const notAReplica = async (what: string): Promise<void> => {
    const current = await replica;
    if (current) throw new Error(`This browser is a replica of ${current.hubUrl}: ${what} would be undone by its hub`);
  };
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
  // A replica answers without a realm of its own until its first login.
  const handler = async (): Promise<RequestHandler> => (await replica) ?? engine();

  const joinHub = async (hubUrl: string, replace: boolean): Promise<JoinAnswer> => {
    const target = hubBase(hubUrl);
    let answer: JoinAnswer = 'joined';
    await changeRealm(async (current) => {
      const existing = await replica;
      if (existing?.hubUrl === target) return;
      if (!replace && (existing || (await current.db.realm.get(1)))) {
        answer = 'needs-consent';
        return;
      }
      await existing?.stop();
      const joined = ReplicaHost.join(await replicaOptions, target);
      replica = joined;
      await joined;
    });
    return answer;
  };

  const control: EngineControl = {
    hello: async () => ({ lockName: await lockName }),
    waitReady: (whenEmpty) =>
      changeRealm(async (current) => {
        if (!(await replica)) await ensureRealm(current, whenEmpty, origin);
      }),
    loadScenario: (source) =>
      changeRealm(async (current) => {
        await notAReplica('a scenario');
        await replaceRealm(current, source, origin);
      }),
    realmSummary: async () => realmSummary(await engine()),
    exportRealm: async () => exportRealm(await engine()),
    importRealm: (archive) =>
      changeRealm(async (current) => {
        await notAReplica('an imported realm');
        await importRealm(current, archive);
      }),
    joinHub,
    replicaState: async () => {
      const current = await replica;
      if (!current) return null;
      return { hubUrl: current.hubUrl, status: (await current.report())?.status ?? null };
    },
    attachRelay: (port) => serveRelayPort(port, handler, guard),
  };

  scope.onconnect = (event) => expose(control, event.ports[0]);
}

/** The hub's base URL as the replica calls it: http(s), no trailing slash, no query. */
function hubBase(hubUrl: string): string {
  const url = new URL(hubUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${hubUrl} is not an http(s) URL of a hub`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
