/**
 * The engine over this origin's IndexedDB, in a worker. Normally a SharedWorker shared by every
 * tab; where SharedWorker does not exist (Chrome on Android) the leader tab starts this same
 * file as a dedicated worker, behind a small adapter (src/browser-host/page/elected-engine.ts).
 * One file for both, so the app ships and caches the engine once.
 * See src/browser-host/engine-worker/engine-host.ts.
 */
import { asSharedWorkerScope } from '../src/browser-host/engine-worker/dedicated-worker-scope.ts';
import { type SharedWorkerScope, startEngineHost } from '../src/browser-host/engine-worker/engine-host.ts';

const shared = typeof SharedWorkerGlobalScope === 'function' && self instanceof SharedWorkerGlobalScope;
startEngineHost(shared ? (self as unknown as SharedWorkerScope) : asSharedWorkerScope(self as unknown as DedicatedWorkerGlobalScope));
