import { Engine, type RequestLogEntry } from '../../engine/engine.ts';
import { exportRealm, importRealm } from '../../engine/realm-archive.ts';
import { holdEngineLock } from '../protocol/engine-lock.ts';
import { ensureRealm, replaceRealm } from './realm-loader.ts';
import { realmSummary } from './realm-summary.ts';
import {
  type EngineHello,
  type EngineToPage,
  type PageToEngine,
  REQUEST_LOG_CHANNEL,
} from '../protocol/relay-protocol.ts';
import { serveRelayPort } from './relay-server.ts';
import { ReplayGuard } from './replay-guard.ts';

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
 * which relays `/api/v1/*` fetches.
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
    onRequest: (entry: RequestLogEntry) => log.postMessage(entry),
  }).then(async (engine) => {
    await ensureRealm(engine, origin);
    return engine;
  });
  const engine = () => ready;

  const answer = async (message: PageToEngine): Promise<unknown> => {
    switch (message.type) {
      case 'hello':
        return { lockName: await lockName } satisfies EngineHello;
      case 'wait-ready':
        await ready;
        return null;
      case 'load-scenario': {
        const previous = ready;
        const loading = previous.then(async (current) => {
          await replaceRealm(current, message.name, origin);
          return current;
        });
        // A failed load leaves the previous realm in place and the engine usable.
        ready = loading.catch(() => previous);
        await loading;
        return null;
      }
      case 'realm-summary':
        return realmSummary(await ready);
      case 'export-realm':
        return exportRealm(await ready);
      case 'import-realm': {
        const previous = ready;
        const importing = previous.then(async (current) => {
          await importRealm(current, message.archive);
          return current;
        });
        // As for a scenario: a refused archive leaves the previous realm in place.
        ready = importing.catch(() => previous);
        await importing;
        return null;
      }
      case 'attach-relay':
        serveRelayPort(message.port, engine, guard);
        return undefined;
    }
  };

  scope.onconnect = (event) => {
    const page = event.ports[0];
    page.onmessage = ({ data }: MessageEvent<PageToEngine>) => {
      answer(data).then(
        (value) => {
          if ('replyId' in data) reply(page, { type: 'reply', replyId: data.replyId, ok: true, value });
        },
        (error: unknown) => {
          if ('replyId' in data) reply(page, { type: 'reply', replyId: data.replyId, ok: false, error: String(error instanceof Error ? error.message : error) });
        },
      );
    };
  };
}

function reply(port: MessagePort, message: EngineToPage): void {
  port.postMessage(message);
}
