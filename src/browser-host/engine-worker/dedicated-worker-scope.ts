import type { EngineConnectMessage } from '../protocol/leader-protocol.ts';
import type { SharedWorkerScope } from './engine-host.ts';

/**
 * Lets the SharedWorker's engine host run unchanged in a dedicated worker, which has no
 * `connect` event: each `engine-connect` message from the leader page carries one port and is
 * delivered to the host as a `connect` event with that port.
 */
export function asSharedWorkerScope(worker: DedicatedWorkerGlobalScope): SharedWorkerScope {
  let onconnect: ((event: MessageEvent) => void) | null = null;
  worker.onmessage = ({ data }: MessageEvent<EngineConnectMessage>) => {
    if (data?.type !== 'engine-connect') return;
    onconnect?.(new MessageEvent('connect', { ports: [data.port] }));
  };
  return {
    location: worker.location,
    navigator: worker.navigator,
    indexedDB: worker.indexedDB,
    IDBKeyRange,
    get onconnect() {
      return onconnect;
    },
    set onconnect(handler) {
      onconnect = handler;
    },
  };
}
