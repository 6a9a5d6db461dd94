/**
 * The engine in a dedicated worker, started by the leader tab where SharedWorker does not exist
 * (Chrome on Android). Same host as worker/engine-worker.ts, behind a small adapter.
 * See src/browser-host/elected-engine.ts.
 */
import { asSharedWorkerScope } from '../src/browser-host/dedicated-worker-scope.ts';
import { startEngineHost } from '../src/browser-host/engine-host.ts';

startEngineHost(asSharedWorkerScope(self as unknown as DedicatedWorkerGlobalScope));
