/**
 * The SharedWorker entry: the engine over this origin's IndexedDB, shared by every tab.
 * See src/browser-host/engine-host.ts.
 */
import { type SharedWorkerScope, startEngineHost } from '../src/browser-host/engine-host.ts';

startEngineHost(self as unknown as SharedWorkerScope);
